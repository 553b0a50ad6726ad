/**
 * Issue 2: an AGENT session of our chat client (getConnectionToken → the agent API,
 * connection acknowledgement) chatting with a CUSTOMER session through the real contact centre.
 */
import { ContentType, ItemType } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Engine } from "../support/databases.js";
import { chatWithAdvisor } from "./support/advisor-chat.js";
import {
  STARTUP_MS,
  startContactCentre,
  type ContactCentreServer,
} from "./support/contact-centre.js";

let server: ContactCentreServer;

describe.each(ENGINES)("agent session against the contact centre on %s", (engine: Engine) => {
  beforeAll(async () => {
    server = await startContactCentre({ engine });
  }, STARTUP_MS);
  afterAll(async () => {
    await server?.close();
  });

  it("an agent session acknowledges its connection and the customer sees the advisor join by name", async () => {
    const { agent, customer, accepted } = await chatWithAdvisor(server.url);
    expect(agent.count("connectionAcknowledged")).toBeGreaterThanOrEqual(1);
    expect(agent.session.getChatDetails()).toMatchObject({
      contactId: accepted.ContactId,
      participantId: accepted.ParticipantId,
    });
    const joined = customer
      .items()
      .filter(
        (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
      );
    expect(joined).toHaveLength(1);
    expect(joined[0]!.DisplayName).toBe("Sam");
  });

  it("advisor and customer exchange messages and typing; each side sees each item once", async () => {
    const { agent, customer } = await chatWithAdvisor(server.url);

    await customer.session.sendEvent({ contentType: ContentType.TYPING });
    const customerTyping = await agent.waitForItem(
      (i) => i.ParticipantRole === "CUSTOMER",
      "typing",
    );
    expect(customerTyping.ContentType).toBe(ContentType.TYPING);

    await agent.session.sendEvent({ contentType: ContentType.TYPING });
    const agentTyping = await customer.waitForItem((i) => i.ParticipantRole === "AGENT", "typing");
    expect(agentTyping).toMatchObject({ DisplayName: "Sam", ContentType: ContentType.TYPING });

    const hello = await agent.session.sendMessage({
      message: "Hi, I'm Sam. How can I help?",
      contentType: "text/plain",
    });
    const seen = await customer.waitForItem((i) => i.Id === hello.data.Id);
    expect(seen).toMatchObject({
      ParticipantRole: "AGENT",
      DisplayName: "Sam",
      Type: ItemType.MESSAGE,
    });

    const reply = await customer.session.sendMessage({
      message: "My parcel is late",
      contentType: "text/plain",
    });
    const got = await agent.waitForItem((i) => i.Id === reply.data.Id);
    expect(got).toMatchObject({ ParticipantRole: "CUSTOMER", Content: "My parcel is late" });

    const markdown = await agent.session.sendMessage({
      message: "**Sorry** about that",
      contentType: "text/markdown",
    });
    await customer.waitForItem((i) => i.Id === markdown.data.Id);

    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const side of [agent, customer]) {
      const ids = side.items().map((i) => i.Id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("read and delivered receipts reach the other side (onReadReceipt, onDeliveredReceipt) and not the sender", async () => {
    const { agent, customer } = await chatWithAdvisor(server.url);
    const fromAgent = await agent.session.sendMessage({
      message: "Can you see this?",
      contentType: "text/plain",
    });
    await customer.waitForItem((i) => i.Id === fromAgent.data.Id);
    await customer.session.sendMessageReceipt({
      contentType: ContentType.READ_RECEIPT,
      messageId: fromAgent.data.Id,
      disableThrottle: true,
    });
    const read = await agent.waitForItem(
      (i) => i.MessageMetadata?.MessageId === fromAgent.data.Id,
      "readReceipt",
    );
    expect(read.MessageMetadata?.Receipts?.[0]).toMatchObject({
      RecipientParticipantId: customer.session.getChatDetails().participantId,
      ReadTimestamp: expect.any(String),
    });

    const fromCustomer = await customer.session.sendMessage({
      message: "Yes",
      contentType: "text/plain",
    });
    await agent.waitForItem((i) => i.Id === fromCustomer.data.Id);
    await agent.session.sendEvent({
      contentType: ContentType.DELIVERED_RECEIPT,
      content: JSON.stringify({ messageId: fromCustomer.data.Id, disableThrottle: true }),
    });
    const delivered = await customer.waitForItem(
      (i) => i.MessageMetadata?.MessageId === fromCustomer.data.Id,
      "deliveredReceipt",
    );
    expect(delivered.MessageMetadata?.Receipts?.[0]).toMatchObject({
      RecipientParticipantId: agent.session.getChatDetails().participantId,
      DeliveredTimestamp: expect.any(String),
    });
    // A session is never told about its own receipts.
    expect(customer.count("readReceipt")).toBe(0);
    expect(agent.count("deliveredReceipt")).toBe(0);
  });

  it("attachments go both ways and are downloaded byte for byte", async () => {
    const { agent, customer } = await chatWithAdvisor(server.url);
    const bytes = Uint8Array.from({ length: 2048 }, (_, n) => (n * 7) % 256);
    const sent = await customer.session.sendAttachment({
      attachment: new File([bytes], "photo.png", { type: "image/png" }),
    });
    const item = await agent.waitForItem(
      (i) =>
        i.Type === ItemType.ATTACHMENT &&
        i.Attachments?.[0]?.AttachmentId === sent.data.AttachmentId,
    );
    expect(item.ParticipantRole).toBe("CUSTOMER");
    const blob = await agent.session.downloadAttachment({ attachmentId: sent.data.AttachmentId });
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);

    const pdf = new TextEncoder().encode("%PDF-1.4 returns label");
    const back = await agent.session.sendAttachment({
      attachment: new File([pdf], "label.pdf", { type: "application/pdf" }),
    });
    const received = await customer.waitForItem(
      (i) =>
        i.Type === ItemType.ATTACHMENT &&
        i.Attachments?.[0]?.AttachmentId === back.data.AttachmentId,
    );
    expect(received).toMatchObject({ ParticipantRole: "AGENT", DisplayName: "Sam" });
    const file = await customer.session.downloadAttachment({
      attachmentId: back.data.AttachmentId,
    });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
  });

  it("when the customer disconnects, the advisor sees the customer leave and the chat end", async () => {
    const { agent, customer } = await chatWithAdvisor(server.url);
    await customer.session.disconnectParticipant();
    await agent.waitForEvent("ended");
    const types = agent.items().map((i) => `${i.ContentType}/${i.ParticipantRole ?? ""}`);
    const left = types.indexOf(`${ContentType.PARTICIPANT_LEFT}/CUSTOMER`);
    const ended = types.findIndex((t) => t.startsWith(`${ContentType.CHAT_ENDED}/`));
    expect(left).toBeGreaterThanOrEqual(0);
    expect(ended).toBeGreaterThan(left);
  });
});
