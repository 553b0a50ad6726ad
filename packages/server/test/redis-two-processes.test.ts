import { ContentType, ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChildServer, type ChildServer } from "./support/child-server.js";
import { call, connectParticipant, FrameClient } from "./support/client.js";
import { createTestDatabase, type TestDatabase } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";
import { sharedRedisEnv } from "./support/shared-redis.js";
import {
  isUnlockedSendersRead,
  recordTransactions,
  statementsDuring,
  UNLOCKED_WRITE,
} from "./support/statements.js";

/** Sends a text message with the connection `token` through the process at `url`; its Id. */
async function send(url: string, token: string, content: string): Promise<string> {
  const reply = await call<{ Id: string }>(url, ParticipantPath.SendMessage, token, {
    ContentType: "text/plain",
    Content: content,
  });
  expect(reply.status).toBe(200);
  return reply.body.Id;
}

describe("two server processes sharing one PostgreSQL database and Redis", () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: ChildServer;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    a = await startServer("postgres", { database, env: sharedRedisEnv() });
    b = await startChildServer({ DATABASE_URL: database.databaseUrl, ...sharedRedisEnv() });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await database?.drop();
  }, START_TIMEOUT_MS);

  /** A chat started on A with an advisor in it: the customer connected on A, the advisor on B. */
  async function openChat() {
    const chat = await a.startChat();
    const agent = await a.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const customer = await connectParticipant(a.url, chat.participantToken);
    const advisor = await connectParticipant(b.url, agent.participantToken);
    return { chat, customer, advisor };
  }

  it("a customer on one process and an advisor on the other exchange messages, typing and the end of the chat", async () => {
    const { chat, customer, advisor } = await openChat();
    expect(advisor.websocketUrl.startsWith(b.url.replace("http", "ws"))).toBe(true);
    const customerSocket = await FrameClient.subscribed(customer.websocketUrl);
    const advisorSocket = await FrameClient.subscribed(advisor.websocketUrl);

    const hello = await send(a.url, customer.connectionToken, "Hello from process A");
    const received = await advisorSocket.waitForItem((i) => i.Id === hello);
    expect(received).toMatchObject({
      Content: "Hello from process A",
      ParticipantRole: "CUSTOMER",
      ContactId: chat.contactId,
    });

    const reply = await send(b.url, advisor.connectionToken, "Hi, process B here");
    const got = await customerSocket.waitForItem((i) => i.Id === reply);
    expect(got).toMatchObject({ ParticipantRole: "AGENT", DisplayName: "Sam" });
    // The sender's own socket gets its message exactly once (no Redis echo duplicate).
    await advisorSocket.waitForItem((i) => i.Id === reply);
    await customerSocket.waitForItem((i) => i.Id === hello);
    expect(advisorSocket.items().filter((i) => i.Id === reply)).toHaveLength(1);
    expect(customerSocket.items().filter((i) => i.Id === hello)).toHaveLength(1);

    const typing = await call<{ Id: string }>(
      b.url,
      ParticipantPath.SendEvent,
      advisor.connectionToken,
      { ContentType: ContentType.TYPING },
    );
    await customerSocket.waitForItem((i) => i.Id === typing.body.Id);

    // Both processes read the same transcript, in the same order.
    const fromA = await call<{ Transcript: { Id: string }[] }>(
      a.url,
      ParticipantPath.GetTranscript,
      customer.connectionToken,
      { MaxResults: 100, SortOrder: "ASCENDING" },
    );
    const fromB = await call<{ Transcript: { Id: string }[] }>(
      b.url,
      ParticipantPath.GetTranscript,
      advisor.connectionToken,
      { MaxResults: 100, SortOrder: "ASCENDING" },
    );
    expect(fromB.body.Transcript.map((i) => i.Id)).toEqual(fromA.body.Transcript.map((i) => i.Id));

    await call(a.url, ParticipantPath.DisconnectParticipant, customer.connectionToken, {});
    await advisorSocket.waitForItem((i) => i.ContentType === ContentType.CHAT_ENDED);
    expect((await advisorSocket.waitForClose()).code).toBe(1000);
    expect((await customerSocket.waitForClose()).code).toBe(1000);
  });

  it("a token another process has just used is refused there once the chat ended here (its cached caller dropped by the word through Redis)", async () => {
    const { customer, advisor } = await openChat();
    const advisorSocket = await FrameClient.subscribed(advisor.websocketUrl);
    const read = () =>
      call(b.url, ParticipantPath.GetTranscript, advisor.connectionToken, { MaxResults: 10 });
    // Twice: the second is answered from B's cache of callers.
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);

    await call(a.url, ParticipantPath.DisconnectParticipant, customer.connectionToken, {});
    await advisorSocket.waitForClose();
    expect((await read()).status).toBe(403);
    const late = await call(b.url, ParticipantPath.SendMessage, advisor.connectionToken, {
      ContentType: "text/plain",
      Content: "too late",
    });
    expect(late.status).toBe(403);
  });

  it("a batch whose contact the other process wrote between its read and its write is written after that, once, in order", async () => {
    const { chat, customer, advisor } = await openChat();
    const advisorSocket = await FrameClient.subscribed(advisor.websocketUrl);
    // After A's batch has read its senders (PostgreSQL writes a batch first without a
    // transaction), B commits the advisor's message to the same contact: A's write finds the
    // contact changed and writes its message after B's.
    const db = a.built.deps.db;
    const realQuery = db.query;
    let round = 0;
    db.query = (async (sql: string, params?: unknown[]) => {
      const rows = await realQuery.call(db, sql, params);
      if (isUnlockedSendersRead(sql)) {
        await send(b.url, advisor.connectionToken, `advisor ${++round}`);
      }
      return rows;
    }) as typeof db.query;
    const sent: string[] = [];
    try {
      for (const n of [1, 2, 3])
        sent.push(await send(a.url, customer.connectionToken, `customer ${n}`));
    } finally {
      db.query = realQuery;
    }
    expect(round).toBe(3);
    const { body } = await call<{ Transcript: { Id: string; Type: string; Content?: string }[] }>(
      a.url,
      ParticipantPath.GetTranscript,
      customer.connectionToken,
      { MaxResults: 100, SortOrder: "ASCENDING" },
    );
    const messages = body.Transcript.filter((i) => i.Type === "MESSAGE");
    expect(messages.map((i) => i.Content)).toEqual([
      "advisor 1",
      "customer 1",
      "advisor 2",
      "customer 2",
      "advisor 3",
      "customer 3",
    ]);
    const rows = (await realQuery.call(
      db,
      "SELECT seq FROM items WHERE contact_id = $1 ORDER BY seq",
      [chat.contactId],
    )) as { seq: number }[];
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    // The advisor on B hears each of the customer's messages, once.
    for (const id of sent) await advisorSocket.waitForItem((i) => i.Id === id);
    expect(advisorSocket.items().filter((i) => sent.includes(i.Id))).toHaveLength(3);
  });

  it("a message whose sender left through the other process between its batch's read and write is refused, and nothing follows the chat's end", async () => {
    const chat = await a.startChat();
    await a.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const customer = await connectParticipant(a.url, chat.participantToken);
    // Once A's batch has read its senders (the customer still in the chat), the customer leaves
    // through B, which ends the chat: A's write finds the contact changed, and its transaction
    // sees that the customer left.
    const db = a.built.deps.db;
    const realQuery = db.query;
    let left = 0;
    db.query = (async (sql: string, params?: unknown[]) => {
      const rows = await realQuery.call(db, sql, params);
      if (isUnlockedSendersRead(sql) && left === 0) {
        left = (
          await call(b.url, ParticipantPath.DisconnectParticipant, customer.connectionToken, {})
        ).status;
      }
      return rows;
    }) as typeof db.query;
    let late;
    try {
      late = await call(a.url, ParticipantPath.SendMessage, customer.connectionToken, {
        ContentType: "text/plain",
        Content: "too late",
      });
    } finally {
      db.query = realQuery;
    }
    expect(left).toBe(200);
    expect(late.status).toBe(403);
    expect(late.body).toMatchObject({ message: "The participant has left or the chat has ended." });
    const rows = (await realQuery.call(
      db,
      "SELECT seq, item FROM items WHERE contact_id = $1 ORDER BY seq",
      [chat.contactId],
    )) as { seq: number; item: { Type: string; ContentType: string } }[];
    expect(rows.map((r) => r.item.Type)).not.toContain("MESSAGE");
    expect(rows.at(-1)!.item.ContentType).toBe(ContentType.CHAT_ENDED);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  });

  it("a chat's senders kept on one process are read again once the other process's message to the chat is heard, not refused by the write", async () => {
    const { chat, customer, advisor } = await openChat();
    const customerSocket = await FrameClient.subscribed(customer.websocketUrl);
    const db = a.built.deps.db;
    /** A's statements reading senders or writing a batch, and its transactions, while `fn` runs. */
    const onA = async (fn: () => Promise<unknown>) => {
      const recorder = recordTransactions(db);
      try {
        const statements = await statementsDuring(
          db,
          /JOIN contacts c|INSERT INTO items/,
          async () => {
            await fn();
          },
        );
        return {
          reads: statements.filter(isUnlockedSendersRead).length,
          statements,
          transactions: recorder.seen,
        };
      } finally {
        recorder.restore();
      }
    };
    try {
      await send(a.url, customer.connectionToken, "customer 1");
      // Kept: the customer's next message on A is the batch's write alone.
      const kept = await onA(() => send(a.url, customer.connectionToken, "customer 2"));
      expect(kept).toMatchObject({ reads: 0, transactions: [] });
      expect(kept.statements).toHaveLength(1);
      expect(kept.statements[0]).toMatch(UNLOCKED_WRITE);
      // B writes to the chat; once A has heard it (its customer's socket has the item), A's
      // next batch reads the chat again and writes without falling back to a transaction.
      const fromB = await send(b.url, advisor.connectionToken, "advisor 1");
      await customerSocket.waitForItem((i) => i.Id === fromB, 20_000);
      const after = await onA(() => send(a.url, customer.connectionToken, "customer 3"));
      expect(after).toMatchObject({ reads: 1, transactions: [] });
      expect(after.statements).toHaveLength(2);
      expect(after.statements[1]).toMatch(UNLOCKED_WRITE);
    } finally {
      customerSocket.close();
    }
    const rows = (await db.query("SELECT seq, item FROM items WHERE contact_id = $1 ORDER BY seq", [
      chat.contactId,
    ])) as { seq: number; item: { Type: string; Content?: string } }[];
    expect(rows.filter((r) => r.item.Type === "MESSAGE").map((r) => r.item.Content)).toEqual([
      "customer 1",
      "customer 2",
      "advisor 1",
      "customer 3",
    ]);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  });
});
