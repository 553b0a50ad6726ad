/**
 * Issue 26, persistent chat: start-chat with `PersistentChat` continues an ended chat, whose
 * past conversation the new one starts with (contact-centre/rehydration.ts), with the hosted
 * service's rules; both rehydration types; the advisor who takes the new chat reads the history.
 */
import { ContentType, ParticipantPath, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "../support/client.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  isPicker,
  postStartChat,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Customer,
} from "./helpers.js";

describe.each(ENGINES)("persistent chat (%s)", (engine) => {
  let server: TestServer;
  const customers: Customer[] = [];
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(() => server.close());
  afterEach(() => {
    for (const c of customers.splice(0)) c.close();
  });

  /** Each chat's continuation secret, as its visitor's widget keeps it (issue 57). */
  const secrets = new Map<string, string>();
  /**
   * PersistentChat continuing `source`, proved with the secret of `continued`, the contact
   * actually continued (ENTIRE_PAST_SESSION: the session's latest).
   */
  const continuing = (RehydrationType: string, source: string, continued = source) => ({
    RehydrationType,
    SourceContactId: source,
    ContinuationToken: secrets.get(continued) ?? "none",
  });
  const startChat = async (extra: Record<string, unknown> = {}) => {
    const started = await postStartChat(server, extra);
    const result = started.body.data?.startChatResult;
    if (result?.ContinuationToken) secrets.set(result.ContactId, result.ContinuationToken);
    return started;
  };

  /** A chat in which the visitor said `words`, then ended. */
  async function pastChat(words: string[], persistentChat?: object): Promise<string> {
    const started = await startChat(persistentChat ? { PersistentChat: persistentChat } : {});
    expect(started.status).toBe(200);
    const result = started.body.data.startChatResult;
    const { connectionToken } = await connectParticipant(server.url, result.ParticipantToken);
    for (const content of words) {
      const r = await call(server.url, "/participant/message", connectionToken, {
        ContentType: ContentType.TEXT_PLAIN,
        Content: content,
      });
      expect(r.status).toBe(200);
    }
    await server.built.deps.centre.endContact(result.ContactId);
    return result.ContactId;
  }

  /** The whole transcript of a chat, oldest first, as the participant of `participantToken` reads it. */
  async function transcriptOf(participantToken: string) {
    const { connectionToken } = await connectParticipant(server.url, participantToken);
    const r = await call<{ Transcript: Item[]; InitialContactId: string }>(
      server.url,
      "/participant/transcript",
      connectionToken,
      { MaxResults: 100, ScanDirection: "FORWARD", SortOrder: "ASCENDING", StartPosition: {} },
    );
    expect(r.status).toBe(200);
    return r.body;
  }

  const customerWords = (items: Item[]) =>
    items
      .filter((i) => i.ParticipantRole === "CUSTOMER" && i.Type === "MESSAGE")
      .map((i) => i.Content);

  it("FROM_SEGMENT: the new chat starts with the ended chat's messages, under new Ids, then chat.rehydrated", async () => {
    const past = await pastChat(["my parcel is late", "order A-10042"]);
    const started = await startChat({ PersistentChat: continuing("FROM_SEGMENT", past) });
    expect(started.status).toBe(200);
    const result = started.body.data.startChatResult;
    expect(result.ContinuedFromContactId).toBe(past);
    const { Transcript, InitialContactId } = await transcriptOf(result.ParticipantToken);
    expect(InitialContactId).toBe(past);
    expect(customerWords(Transcript).slice(0, 2)).toEqual(["my parcel is late", "order A-10042"]);
    const copies = Transcript.filter((i) => i.RelatedContactId === past);
    // The flow's greeting and menu, and the visitor's words; no events of the past chat.
    expect(copies.length).toBeGreaterThanOrEqual(4);
    expect(copies.every((i) => i.Type === "MESSAGE" && i.ContactId === result.ContactId)).toBe(
      true,
    );
    const rehydratedAt = Transcript.findIndex((i) => i.ContentType === ContentType.CHAT_REHYDRATED);
    const joinedAt = Transcript.findIndex(
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "CUSTOMER",
    );
    expect(rehydratedAt).toBe(copies.length);
    expect(joinedAt).toBe(rehydratedAt + 1);
    // Ids are new: none of the copies shares an Id with the past chat's items.
    const original = await transcriptOfEnded(past);
    expect(copies.filter((c) => original.has(c.Id))).toEqual([]);
  });

  /** The Ids of an ended contact's items, read from the store. */
  async function transcriptOfEnded(contactId: string): Promise<Set<string>> {
    const rows = await server.built.deps.db.query<{ item_id: string }>(
      "SELECT item_id FROM items WHERE contact_id = $1",
      [contactId],
    );
    return new Set(rows.map((r) => r.item_id));
  }

  it("ENTIRE_PAST_SESSION names the session's first chat and continues its latest: every chat of the session once, in order", async () => {
    const first = await pastChat(["monday: hello"]);
    const second = await pastChat(["tuesday: still waiting"], continuing("FROM_SEGMENT", first));
    const started = await startChat({
      PersistentChat: continuing("ENTIRE_PAST_SESSION", first, second),
    });
    expect(started.status).toBe(200);
    const result = started.body.data.startChatResult;
    expect(result.ContinuedFromContactId).toBe(second);
    const { Transcript, InitialContactId } = await transcriptOf(result.ParticipantToken);
    expect(InitialContactId).toBe(first);
    expect(customerWords(Transcript)).toEqual(["monday: hello", "tuesday: still waiting"]);
    // Each copy names the chat it was first written in.
    const related = (words: string) =>
      Transcript.find((i) => i.Content === words)?.RelatedContactId;
    expect([related("monday: hello"), related("tuesday: still waiting")]).toEqual([first, second]);
    expect(Transcript.filter((i) => i.ContentType === ContentType.CHAT_REHYDRATED)).toHaveLength(1);
  });

  it("refuses a proved continuation, with a 400 saying why and starting nothing: a chat still going, a later chat for ENTIRE_PAST_SESSION, a session whose latest chat goes on, a chat continued already, an unknown type", async () => {
    const contacts = async () =>
      (await server.built.deps.db.query("SELECT contact_id FROM contacts")).length;
    const refused = async (PersistentChat: object, message: string) => {
      const before = await contacts();
      const r = await postStartChat(server, { PersistentChat });
      expect(r.status).toBe(400);
      expect((r.body as unknown as { message: string }).message).toBe(message);
      expect(await contacts()).toBe(before);
    };
    const going = (await startChat()).body.data.startChatResult.ContactId;
    await refused(
      continuing("FROM_SEGMENT", going),
      `PersistentChat.SourceContactId ${going} has not ended: only an ended chat can be continued.`,
    );
    const first = await pastChat(["hi"]);
    const second = await pastChat(["again"], continuing("FROM_SEGMENT", first));
    await refused(
      continuing("ENTIRE_PAST_SESSION", second),
      `PersistentChat.SourceContactId ${second} is not the first contact of a past session (ENTIRE_PAST_SESSION needs it).`,
    );
    await refused(
      continuing("FROM_SEGMENT", first),
      `PersistentChat.SourceContactId ${first} was continued already: continue the chat that continued it.`,
    );
    const third = (await startChat({ PersistentChat: continuing("FROM_SEGMENT", second) })).body
      .data.startChatResult.ContactId;
    await refused(
      continuing("ENTIRE_PAST_SESSION", first, third),
      `PersistentChat.SourceContactId ${third} has not ended: only an ended chat can be continued.`,
    );
    const r = await postStartChat(server, {
      PersistentChat: { ...continuing("FROM_SEGMENT", first), RehydrationType: "SOMETIMES" },
    });
    expect(r.status).toBe(400);
  });

  it("a file of the past chat comes along and downloads in the continued chat, and nowhere else", async () => {
    const started = await startChat();
    const result = started.body.data.startChatResult;
    const { connectionToken } = await connectParticipant(server.url, result.ParticipantToken);
    const bytes = Buffer.from("invoice A-10042");
    const upload = await call<{
      AttachmentId: string;
      UploadMetadata: { Url: string; HeadersToInclude: Record<string, string> };
    }>(server.url, ParticipantPath.StartAttachmentUpload, connectionToken, {
      ContentType: "text/plain",
      AttachmentSizeInBytes: bytes.length,
      AttachmentName: "invoice.txt",
      ClientToken: "upload-1",
    });
    expect(upload.status).toBe(200);
    const put = await fetch(upload.body.UploadMetadata.Url, {
      method: "PUT",
      headers: upload.body.UploadMetadata.HeadersToInclude,
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    const { AttachmentId } = upload.body;
    const completed = await call(
      server.url,
      ParticipantPath.CompleteAttachmentUpload,
      connectionToken,
      {
        AttachmentIds: [AttachmentId],
        ClientToken: "complete-1",
      },
    );
    expect(completed.status).toBe(200);
    await server.built.deps.centre.endContact(result.ContactId);

    const continued = await startChat({
      PersistentChat: continuing("FROM_SEGMENT", result.ContactId),
    });
    const next = continued.body.data.startChatResult;
    const { Transcript } = await transcriptOf(next.ParticipantToken);
    const file = Transcript.find((i) => i.Attachments?.[0]?.AttachmentId === AttachmentId);
    expect(file).toMatchObject({ Type: "ATTACHMENT", RelatedContactId: result.ContactId });
    const download = async (participantToken: string) => {
      const c = await connectParticipant(server.url, participantToken);
      return call<{ Url: string }>(server.url, ParticipantPath.GetAttachment, c.connectionToken, {
        AttachmentId,
      });
    };
    const got = await download(next.ParticipantToken);
    expect(got.status).toBe(200);
    expect(await (await fetch(got.body.Url)).text()).toBe("invoice A-10042");
    const stranger = (await postStartChat(server)).body.data.startChatResult;
    expect((await download(stranger.ParticipantToken)).status).toBe(400);
  });

  it("the visitor reads the history of the continued chat, and so does the advisor who takes it", async () => {
    const past = await pastChat(["the blue mug arrived broken"]);
    const advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    const customer = await widgetCustomer(server, null, {
      PersistentChat: continuing("FROM_SEGMENT", past),
    });
    customers.push(customer);
    expect(customerWords(customer.items())[0]).toBe("the blue mug arrived broken");
    // Today's menu (not yesterday's copy), then an advisor.
    await customer.waitFor((i) => isPicker(i) && i.RelatedContactId === undefined);
    await customer.say("Talk to an advisor");
    // Accepted once it is in the queue.
    let token = "";
    await expect
      .poll(
        async () => {
          const accepted = await advisor.accept(customer.contactId);
          token = accepted.body.ParticipantToken;
          return accepted.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
    const seen = await transcriptOf(token);
    expect(customerWords(seen.Transcript)[0]).toBe("the blue mug arrived broken");
  });
});
