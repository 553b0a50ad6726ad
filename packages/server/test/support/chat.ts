import type { NewParticipant } from "../../src/contact-centre/types.js";
import { connectParticipant, FrameClient } from "./client.js";
import type { TestServer } from "./server.js";

export interface Side {
  participant: NewParticipant;
  connectionToken: string;
  socket: FrameClient;
}

export interface TwoSidedChat {
  contactId: string;
  customer: Side;
  advisor: Side;
  closeSockets(): void;
}

/** A chat with a customer and an AGENT participant, both connected and subscribed to aws/chat. */
export async function chatWithAdvisor(server: TestServer): Promise<TwoSidedChat> {
  const chat = await server.startChat();
  const agent = await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
  const side = async (participant: NewParticipant): Promise<Side> => {
    const c = await connectParticipant(server.url, participant.participantToken);
    return {
      participant,
      connectionToken: c.connectionToken,
      socket: await FrameClient.subscribed(c.websocketUrl),
    };
  };
  const customer = await side(chat);
  const advisor = await side(agent);
  return {
    contactId: chat.contactId,
    customer,
    advisor,
    closeSockets() {
      customer.socket.close();
      advisor.socket.close();
    },
  };
}
