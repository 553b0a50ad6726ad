/**
 * A customer chat that the default flow routes to the advisors' queue and the demo advisor
 * accepts through the agent API, with our chat client on both sides.
 */
import { ContentType } from "@chat-widget/protocol";
import type { AcceptResponse, StartChatResult } from "@chat-widget/protocol";
import { expect } from "vitest";
import { Advisor, startChat } from "./http.js";
import { agentSession, customerSession, type Recorder, type SessionOptions } from "./sessions.js";

export interface AdvisorChat {
  chat: StartChatResult;
  accepted: AcceptResponse;
  advisor: Advisor;
  customer: Recorder;
  agent: Recorder;
}

export async function chatWithAdvisor(
  base: string,
  options: { customer?: SessionOptions; agent?: SessionOptions; advisor?: Advisor } = {},
): Promise<AdvisorChat> {
  const chat = await startChat(base, "Alex");
  const customer = await customerSession(base, chat, options.customer);
  expect((await customer.session.connect()).connectSuccess).toBe(true);
  await customer.waitForItem((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);
  await customer.session.sendMessage({ message: "Talk to an advisor", contentType: "text/plain" });

  const advisor = options.advisor ?? (await Advisor.signIn(base));
  await advisor.waitForQueued(chat.ContactId);
  const accepted = await advisor.accept(chat.ContactId);
  expect(accepted).toMatchObject({ ContactId: chat.ContactId, CustomerName: "Alex" });

  const agent = await agentSession(base, advisor, accepted, options.agent);
  expect((await agent.session.connect()).connectSuccess).toBe(true);
  await agent.waitForEvent("connectionAcknowledged");
  await customer.waitForItem(
    (i) =>
      i.ContentType === ContentType.PARTICIPANT_JOINED &&
      i.ParticipantRole === "AGENT" &&
      i.DisplayName === advisor.signIn.Advisor.Name,
  );
  // connect() success, then the websocket gained.
  await agent.waitForEvent("connectionEstablished", 2);
  await agent.waitForItem(
    (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
  );
  return { chat, accepted, advisor, customer, agent };
}
