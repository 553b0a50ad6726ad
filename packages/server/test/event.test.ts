import { ContentType, ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatWithAdvisor } from "./support/chat.js";
import { call } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { SendMessage, SendEvent, GetTranscript } = ParticipantPath;

describe.each(ENGINES)("SendEvent (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("delivers typing to every participant but does not store it in the transcript", async () => {
    const chat = await chatWithAdvisor(server);
    const r = await call<{ Id: string; AbsoluteTime: string }>(
      server.url,
      SendEvent,
      chat.advisor.connectionToken,
      {
        ContentType: ContentType.TYPING,
        ClientToken: "typing-1",
      },
    );
    expect(r.status).toBe(200);
    for (const side of [chat.customer, chat.advisor]) {
      const item = await side.socket.waitForItem((i) => i.Id === r.body.Id);
      expect(item).toMatchObject({
        Type: "EVENT",
        ContentType: ContentType.TYPING,
        ParticipantRole: "AGENT",
        DisplayName: "Sam",
        ContactId: chat.contactId,
        InitialContactId: chat.contactId,
      });
    }
    const t = await call<{ Transcript: { Id: string; ContentType?: string }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100 },
    );
    expect(t.body.Transcript.some((i) => i.ContentType === ContentType.TYPING)).toBe(false);
    chat.closeSockets();
  });

  it("turns a read receipt into a MESSAGEMETADATA item whose Receipts[0].RecipientParticipantId is the receipt's sender", async () => {
    const chat = await chatWithAdvisor(server);
    const m = await call<{ Id: string }>(server.url, SendMessage, chat.advisor.connectionToken, {
      ContentType: "text/plain",
      Content: "Hello",
    });
    const r = await call<{ Id: string }>(server.url, SendEvent, chat.customer.connectionToken, {
      ContentType: ContentType.READ_RECEIPT,
      Content: JSON.stringify({ messageId: m.body.Id, disableThrottle: true }),
      ClientToken: "INCOMING_READ_RECEIPT",
    });
    expect(r.status).toBe(200);
    const item = await chat.advisor.socket.waitForItem((i) => i.Id === r.body.Id);
    expect(item.Type).toBe("MESSAGEMETADATA");
    expect(item.ContentType).toBe(ContentType.MESSAGE_METADATA);
    expect(item.AbsoluteTime).toMatch(/Z$/);
    expect(item.MessageMetadata?.MessageId).toBe(m.body.Id);
    expect(item.MessageMetadata?.Receipts?.[0]?.RecipientParticipantId).toBe(
      chat.customer.participant.participantId,
    );
    expect(item.MessageMetadata?.Receipts?.[0]?.ReadTimestamp).toBe(item.AbsoluteTime);
    await chat.customer.socket.waitForItem((i) => i.Id === r.body.Id);
    chat.closeSockets();
  });

  it("GetTranscript carries each message's receipts in its own MessageMetadata (the SDK model), one per reader, whatever page the receipt items are on", async () => {
    const chat = await chatWithAdvisor(server);
    const send = (who: typeof chat.advisor, Content: string) =>
      call<{ Id: string }>(server.url, SendMessage, who.connectionToken, {
        ContentType: "text/plain",
        Content,
      });
    const receipt = (messageId: string, ContentType: string, ClientToken: string) =>
      call<{ Id: string; AbsoluteTime: string }>(
        server.url,
        SendEvent,
        chat.customer.connectionToken,
        { ContentType, Content: JSON.stringify({ messageId }), ClientToken },
      );
    const hello = await send(chat.advisor, "Hello");
    const unread = await send(chat.advisor, "Anything else?");
    const delivered = await receipt(hello.body.Id, ContentType.DELIVERED_RECEIPT, "d1");
    const read = await receipt(hello.body.Id, ContentType.READ_RECEIPT, "r1");
    const readAgain = await receipt(hello.body.Id, ContentType.READ_RECEIPT, "r2");
    expect([delivered.status, read.status, readAgain.status]).toEqual([200, 200, 200]);
    type Page = {
      Transcript: {
        Id: string;
        Type: string;
        MessageMetadata?: { MessageId?: string; Receipts?: unknown[] };
      }[];
      NextToken?: string;
    };
    // The newest items are the receipts: the messages are on a later (older) page.
    const transcript: Page["Transcript"] = [];
    let NextToken: string | undefined;
    do {
      const page = await call<Page>(server.url, GetTranscript, chat.customer.connectionToken, {
        MaxResults: 2,
        ...(NextToken ? { NextToken } : {}),
      });
      expect(page.status).toBe(200);
      transcript.push(...page.body.Transcript);
      NextToken = page.body.NextToken;
    } while (NextToken);
    const byId = (id: string) => transcript.find((i) => i.Id === id)!;
    expect(byId(hello.body.Id).MessageMetadata).toEqual({
      MessageId: hello.body.Id,
      Receipts: [
        {
          RecipientParticipantId: chat.customer.participant.participantId,
          DeliveredTimestamp: delivered.body.AbsoluteTime,
          ReadTimestamp: read.body.AbsoluteTime,
        },
      ],
    });
    expect(byId(unread.body.Id).MessageMetadata).toBeUndefined();
    // The receipt items stay in the transcript too: chatjs seeds its receipt sets from them.
    expect(byId(read.body.Id).Type).toBe("MESSAGEMETADATA");
    chat.closeSockets();
  });

  it("does not swallow receipts for different messages that share chatjs's constant ClientToken", async () => {
    const chat = await chatWithAdvisor(server);
    const ids: string[] = [];
    for (const text of ["one", "two"]) {
      const m = await call<{ Id: string }>(server.url, SendMessage, chat.advisor.connectionToken, {
        ContentType: "text/plain",
        Content: text,
      });
      ids.push(m.body.Id);
    }
    const receipts: string[] = [];
    for (const id of ids) {
      const r = await call<{ Id: string }>(server.url, SendEvent, chat.customer.connectionToken, {
        ContentType: ContentType.DELIVERED_RECEIPT,
        Content: JSON.stringify({ messageId: id }),
        ClientToken: "INCOMING_DELIVERED_RECEIPT",
      });
      expect(r.status).toBe(200);
      receipts.push(r.body.Id);
    }
    expect(receipts[0]).not.toBe(receipts[1]);
    const second = await chat.advisor.socket.waitForItem((i) => i.Id === receipts[1]);
    expect(second.MessageMetadata?.MessageId).toBe(ids[1]);
    expect(second.MessageMetadata?.Receipts?.[0]?.DeliveredTimestamp).toBeDefined();
    expect(second.MessageMetadata?.Receipts?.[0]?.ReadTimestamp).toBeUndefined();
    // An exact replay (same token, same content) is the same receipt.
    const replay = await call<{ Id: string }>(
      server.url,
      SendEvent,
      chat.customer.connectionToken,
      {
        ContentType: ContentType.DELIVERED_RECEIPT,
        Content: JSON.stringify({ messageId: ids[1] }),
        ClientToken: "INCOMING_DELIVERED_RECEIPT",
      },
    );
    expect(replay.body.Id).toBe(receipts[1]);
    chat.closeSockets();
  });

  it("rejects a receipt without a messageId, or for a message not in the chat, with 400 ValidationException", async () => {
    const chat = await chatWithAdvisor(server);
    for (const Content of ["not json", JSON.stringify({}), JSON.stringify({ messageId: "nope" })]) {
      const r = await call(server.url, SendEvent, chat.customer.connectionToken, {
        ContentType: ContentType.READ_RECEIPT,
        Content,
      });
      expect(r.status).toBe(400);
      expect(r.body.__type).toBe("ValidationException");
      expect(r.body.message).toMatch(/messageId|Message/);
    }
    chat.closeSockets();
  });

  it("answers a receipt with more than two active participants with 409 ConflictException", async () => {
    const chat = await chatWithAdvisor(server);
    await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Supervisor");
    const m = await call<{ Id: string }>(server.url, SendMessage, chat.advisor.connectionToken, {
      ContentType: "text/plain",
      Content: "hi",
    });
    const r = await call(server.url, SendEvent, chat.customer.connectionToken, {
      ContentType: ContentType.READ_RECEIPT,
      Content: JSON.stringify({ messageId: m.body.Id }),
    });
    expect(r.status).toBe(409);
    expect(r.headers.get("x-amzn-errortype")).toBe("ConflictException");
    chat.closeSockets();
  });

  it("rejects event content types participants may not send with 400 ValidationException", async () => {
    const chat = await chatWithAdvisor(server);
    for (const ct of [ContentType.CHAT_ENDED, "text/plain", ContentType.PARTICIPANT_JOINED]) {
      const r = await call(server.url, SendEvent, chat.customer.connectionToken, {
        ContentType: ct,
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/not supported by SendEvent/);
    }
    chat.closeSockets();
  });

  it("refuses the deprecated connection.acknowledged event with 400 ValidationException naming it unsupported and pointing to CreateParticipantConnection, storing nothing", async () => {
    const chat = await chatWithAdvisor(server);
    for (const token of [chat.customer.connectionToken, chat.advisor.connectionToken]) {
      const r = await call(server.url, SendEvent, token, {
        ContentType: ContentType.CONNECTION_ACKNOWLEDGED,
      });
      expect(r.status).toBe(400);
      expect(r.body.__type).toBe("ValidationException");
      expect(r.headers.get("x-amzn-errortype")).toBe("ValidationException");
      expect(r.body.message).toMatch(/connection\.acknowledged.*no longer supported/);
      expect(r.body.message).toMatch(/CreateParticipantConnection.*ConnectParticipant/);
    }
    const transcript = await call<{ Transcript: { ContentType?: string }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100 },
    );
    expect(
      transcript.body.Transcript.filter(
        (i) => i.ContentType === ContentType.CONNECTION_ACKNOWLEDGED,
      ),
    ).toEqual([]);
    chat.closeSockets();
  });

  it("rejects event Content over 16,384 bytes (counted in UTF-8, not characters) with 400 ValidationException", async () => {
    const chat = await chatWithAdvisor(server);
    const send = (content: string) =>
      call(server.url, SendEvent, chat.customer.connectionToken, {
        ContentType: ContentType.TYPING,
        Content: content,
      });
    const tooBig = await send("😀".repeat(4097)); // 4,097 characters, 16,388 bytes
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toMatchObject({ __type: "ValidationException" });
    expect(tooBig.body.message).toMatch(/16384 bytes/);
    expect((await send("😀".repeat(4096))).status).toBe(200);
    chat.closeSockets();
  });
});
