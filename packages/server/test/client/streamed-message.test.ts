/**
 * Issue 26, streamed answers in the contact centre: a SYSTEM participant's message written as it
 * goes reaches our client's CUSTOMER session chunk by chunk, stitched into the text so far
 * under one Id, then completed once; only the completed message is stored (on PGlite and on
 * PostgreSQL). Nobody but the flow may stream.
 */
import { randomUUID } from "node:crypto";
import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageStream } from "../../src/contact-centre/message-stream.js";
import { ENGINES, type Engine } from "../support/databases.js";
import {
  STARTUP_MS,
  startContactCentre,
  type ContactCentreServer,
} from "./support/contact-centre.js";
import { startChat } from "./support/http.js";
import { customerSession, type Recorder } from "./support/sessions.js";

let server: ContactCentreServer;

/** A connected customer whose flow has asked its first question (so it is quiet). */
async function quietChat(): Promise<{ customer: Recorder; contactId: string; system: string }> {
  const chat = await startChat(server.url, "Ada");
  const customer = await customerSession(server.url, chat);
  expect((await customer.session.connect()).connectSuccess).toBe(true);
  await customer.waitForItem((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);
  const participants = await server.built.deps.centre.getParticipants(chat.ContactId);
  const system = participants.find((p) => p.role === "SYSTEM")!.participantId;
  return { customer, contactId: chat.ContactId, system };
}

const streamed = (customer: Recorder, id: string): Item[] =>
  customer.items().filter((i) => i.Id === id);

describe.each(ENGINES)("a streamed bot answer on %s (issue 26)", (engine: Engine) => {
  beforeAll(async () => {
    server = await startContactCentre({ engine });
  }, STARTUP_MS);
  afterAll(async () => {
    await server?.close();
  });

  it("grows chunk by chunk under one Id, is completed once, and only the completed text is stored", async () => {
    const { customer, contactId, system } = await quietChat();
    const stream = new MessageStream(server.built.deps.centre, contactId, system, {
      contentType: ContentType.TEXT_MARKDOWN,
      displayName: "BOT",
    });
    await stream.append("Returns are **free** ");
    await customer.waitUntil(() => streamed(customer, stream.id).length === 1, "chunk 1");
    await stream.append("within 30 days");
    await stream.append(".");
    await customer.waitUntil(() => streamed(customer, stream.id).length === 3, "chunk 3");
    const transcriptMidway = await customer.session.getTranscript({ maxResults: 100 });
    expect(transcriptMidway.data.Transcript.some((i: Item) => i.Id === stream.id)).toBe(false);

    const completed = await stream.complete();
    expect(await stream.complete()).toBe(completed);
    await customer.waitUntil(() => streamed(customer, stream.id).length === 4, "the completed");
    const seen = streamed(customer, stream.id);
    expect(seen.map((i) => i.Content)).toEqual([
      "Returns are **free** ",
      "Returns are **free** within 30 days",
      "Returns are **free** within 30 days.",
      "Returns are **free** within 30 days.",
    ]);
    expect(seen.map((i) => i.MessageMetadata?.MessageCompleted)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(new Set(seen.slice(0, 3).map((i) => i.AbsoluteTime)).size).toBe(1);
    expect(seen.every((i) => i.DisplayName === "BOT" && i.ParticipantRole === "SYSTEM")).toBe(true);

    const transcript = await customer.session.getTranscript({ maxResults: 100 });
    const stored = transcript.data.Transcript.filter((i: Item) => i.Id === stream.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      Content: "Returns are **free** within 30 days.",
      ContentType: ContentType.TEXT_MARKDOWN,
    });
  });

  it("a message under the flow's own Id is stored once, whatever a second post of it says", async () => {
    const { customer, contactId, system } = await quietChat();
    const centre = server.built.deps.centre;
    const id = randomUUID();
    const first = new MessageStream(centre, contactId, system, {
      contentType: ContentType.TEXT_MARKDOWN,
      id,
    });
    await first.append("Our shop opens at nine.");
    const committed = await first.complete();
    // The step performed again (after a crash): a bot asked again may say something else.
    const again = new MessageStream(centre, contactId, system, {
      contentType: ContentType.TEXT_MARKDOWN,
      id,
    });
    await again.append("We open at 9 am.");
    expect(await again.complete()).toEqual(committed);
    const plain = await centre.postMessage(contactId, system, {
      contentType: ContentType.TEXT_PLAIN,
      content: "Anything else?",
      id: randomUUID(),
    });
    const plainAgain = await centre.postMessage(contactId, system, {
      contentType: ContentType.TEXT_PLAIN,
      content: "Can I help with anything else?",
      id: plain.Id,
    });
    expect(plainAgain).toEqual(plain);
    const transcript = await customer.session.getTranscript({ maxResults: 100 });
    const stored = transcript.data.Transcript.filter((i: Item) => i.Id === id || i.Id === plain.Id);
    expect(stored.map((i: Item) => i.Content)).toEqual([
      "Our shop opens at nine.",
      "Anything else?",
    ]);
    // A customer's post cannot choose its Id.
    const customerId = (await centre.getParticipants(contactId)).find(
      (p) => p.role === "CUSTOMER",
    )!.participantId;
    const mine = await centre.postMessage(contactId, customerId, {
      contentType: ContentType.TEXT_PLAIN,
      content: "hello",
      id: plain.Id,
    });
    expect(mine.Id).not.toBe(plain.Id);
  });

  it("a customer cannot stream, and nothing is streamed into an ended chat", async () => {
    const { customer, contactId, system } = await quietChat();
    const participants = await server.built.deps.centre.getParticipants(contactId);
    const customerId = participants.find((p) => p.role === "CUSTOMER")!.participantId;
    const centre = server.built.deps.centre;
    const asCustomer = new MessageStream(centre, contactId, customerId, {
      contentType: ContentType.TEXT_PLAIN,
    });
    await expect(asCustomer.append("hi")).rejects.toMatchObject({ type: "AccessDeniedException" });

    const stream = new MessageStream(centre, contactId, system, {
      contentType: ContentType.TEXT_PLAIN,
    });
    await expect(stream.complete()).rejects.toMatchObject({ type: "ValidationException" });
    await centre.endContact(contactId);
    await customer.waitForItem((i) => i.ContentType === ContentType.CHAT_ENDED);
    await expect(stream.append("too late")).rejects.toMatchObject({
      type: "AccessDeniedException",
    });
    expect(streamed(customer, stream.id)).toEqual([]);
  });
});
