import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbContactCentre } from "../src/contact-centre/contact-centre.js";
import type { NewParticipant } from "../src/contact-centre/types.js";
import type { Db } from "../src/store/db.js";
import { ENGINES } from "./support/databases.js";
import {
  isUnlockedSendersRead,
  recordTransactions,
  statementsDuring,
  UNLOCKED_WRITE,
} from "./support/statements.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

/** Posts a text message as `chat`'s participant, with `clientToken` when given. */
const send = (
  centre: DbContactCentre,
  chat: NewParticipant,
  content: string,
  clientToken?: string,
): Promise<Item> =>
  centre.postMessage(chat.contactId, chat.participantId, {
    contentType: "text/plain",
    content,
    ...(clientToken ? { clientToken } : {}),
  });
/** The items stored for `contactId`, in order. */
const stored = async (db: Db, contactId: string): Promise<Item[]> =>
  (
    await db.query<{ item: Item }>("SELECT item FROM items WHERE contact_id = $1 ORDER BY seq", [
      contactId,
    ])
  ).map((r) => r.item);
/** The contents of the messages stored for `contactId`, in order. */
const messagesOf = async (db: Db, contactId: string) =>
  (await stored(db, contactId)).filter((i) => i.Type === "MESSAGE").map((i) => i.Content);

// SendMessage's group commit (src/contact-centre/message-batch.ts): messages arriving while a
// transaction runs commit together, each checked and answered as it would be alone.
describe.each(ENGINES)("group commit of messages (%s)", (engine) => {
  let server: TestServer;
  let centre: DbContactCentre;
  let db: Db;
  let realTransaction: Db["transaction"];
  let realQuery: Db["query"];
  /**
   * How many writes began since the last reset (transactions, and a batch's statement written
   * without one, see MessageBatch's writeUnlocked), and failures to inject.
   */
  const writes = { count: 0, failNext: 0 };
  const injected = (what: string): Error | null => {
    writes.count++;
    if (writes.failNext === 0) return null;
    writes.failNext--;
    return new Error(`injected: the ${what} failed`);
  };

  beforeAll(async () => {
    server = await startServer(engine);
    centre = server.built.deps.centre as DbContactCentre;
    db = server.built.deps.db;
    realTransaction = db.transaction.bind(db);
    realQuery = db.query.bind(db);
    db.transaction = (fn) => {
      const failure = injected("transaction");
      return failure ? Promise.reject(failure) : realTransaction(fn);
    };
    db.query = ((sql: string, params?: unknown[]) => {
      const failure = UNLOCKED_WRITE.test(sql) ? injected("statement") : null;
      return failure ? Promise.reject(failure) : realQuery(sql, params);
    }) as Db["query"];
  }, START_TIMEOUT_MS);
  afterEach(() => {
    writes.count = 0;
    writes.failNext = 0;
  });
  afterAll(async () => {
    if (db) {
      db.transaction = realTransaction;
      db.query = realQuery;
    }
    await server?.close();
  }, START_TIMEOUT_MS);

  const chats = (n: number) => Promise.all(Array.from({ length: n }, () => server.startChat()));

  it("commits many contacts' messages in a few transactions, each stored once, in order", async () => {
    const all = await chats(20);
    writes.count = 0;
    const sent = await Promise.all(
      all.flatMap((chat) =>
        [1, 2, 3].map((n) => send(centre, chat, `${chat.contactId} #${n}`, `t${n}`)),
      ),
    );
    // Posted within one turn of the event loop: one write for all 60.
    expect(writes.count).toBe(1);
    for (const chat of all) {
      const items = (await stored(db, chat.contactId)).filter((i) => i.Type === "MESSAGE");
      expect(items.map((i) => i.Content)).toEqual([1, 2, 3].map((n) => `${chat.contactId} #${n}`));
      const answered = sent.filter((item) => item.ContactId === chat.contactId);
      expect(answered.map((i) => i.Id)).toEqual(items.map((i) => i.Id));
    }
  });

  it("writes a batch's items and the ClientTokens it records in one statement", async () => {
    const all = await chats(3);
    const recorder = recordTransactions(db);
    const inserting = /INSERT INTO (items|idempotency)/;
    let outside: string[];
    try {
      outside = await statementsDuring(db, inserting, async () => {
        await Promise.all(all.map((chat, n) => send(centre, chat, `keyed #${n}`, `key ${n}`)));
      });
    } finally {
      recorder.restore();
    }
    expect(recorder.seen).toHaveLength(0);
    const inserts = [...recorder.seen.flat().filter((q) => inserting.test(q)), ...outside];
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).toMatch(/INSERT INTO items .* INSERT INTO idempotency/);
    // Recorded: the same tokens answer with the same items.
    const again = await Promise.all(
      all.map((chat, n) => send(centre, chat, `keyed #${n}`, `key ${n}`)),
    );
    for (const [n, chat] of all.entries()) {
      expect(await messagesOf(db, chat.contactId)).toEqual([`keyed #${n}`]);
      expect(again[n]!.Content).toBe(`keyed #${n}`);
    }
  });

  it("looks no ClientToken up for a batch of new ones; a repeated one writes its batch again", async () => {
    const [a, b] = await chats(2);
    const lookups = (statements: string[]) =>
      statements.filter((q) => /JOIN idempotency/.test(q)).length;
    const recorder = recordTransactions(db);
    let first: Item[];
    let mixed: Item[];
    try {
      first = await Promise.all([send(centre, a!, "a1", "ta1"), send(centre, b!, "b1", "tb1")]);
      expect(recorder.seen.map(lookups)).toEqual([]);
      recorder.seen.length = 0;
      // b's retry of its first message beside a's new one: the first write finds the repeat
      // and is undone; the second looks the tokens up. (On PostgreSQL the first is the
      // statement without a transaction, its failure undoing it whole.)
      mixed = await Promise.all([send(centre, a!, "a2", "ta2"), send(centre, b!, "b1", "tb1")]);
      expect(recorder.seen.map(lookups)).toEqual([1]);
    } finally {
      recorder.restore();
    }
    expect(mixed[1]!.Id).toBe(first[1]!.Id);
    expect(await messagesOf(db, a!.contactId)).toEqual(["a1", "a2"]);
    expect(await messagesOf(db, b!.contactId)).toEqual(["b1"]);
    // a2's token was recorded by the second write, not lost with the first.
    expect((await send(centre, a!, "a2", "ta2")).Id).toBe(mixed[0]!.Id);
    expect(await messagesOf(db, a!.contactId)).toEqual(["a1", "a2"]);
  });

  it("answers a repeated ClientToken with the first item, in the same batch and in a later one", async () => {
    const [busy, chat] = await chats(2);
    const first = send(centre, busy!, "another contact's, in the same batch");
    const twice = await Promise.all([
      send(centre, chat!, "once", "same"),
      send(centre, chat!, "once", "same"),
    ]);
    await first;
    const later = await send(centre, chat!, "once", "same");
    expect(twice[1]!.Id).toBe(twice[0]!.Id);
    expect(later.Id).toBe(twice[0]!.Id);
    // Another content under the same token is another request.
    const other = await send(centre, chat!, "other", "same");
    expect(other.Id).not.toBe(twice[0]!.Id);
    expect(await messagesOf(db, chat!.contactId)).toEqual(["once", "other"]);
  });

  it("refuses a sender who left without refusing the others in its batch", async () => {
    const [busy, left, staying] = await chats(3);
    await centre.disconnectParticipant(left!.contactId, left!.participantId);
    const first = send(centre, busy!, "another contact's, in the same batch");
    const [refused, accepted, stranger] = await Promise.allSettled([
      send(centre, left!, "after leaving"),
      send(centre, staying!, "still here"),
      // A participant of another contact.
      centre.postMessage(staying!.contactId, left!.participantId, {
        contentType: "text/plain",
        content: "not my chat",
      }),
    ]);
    await first;
    expect(refused).toMatchObject({
      status: "rejected",
      reason: {
        type: "AccessDeniedException",
        message: "The participant has left or the chat has ended.",
      },
    });
    expect(stranger).toMatchObject({
      status: "rejected",
      reason: { type: "AccessDeniedException" },
    });
    expect(accepted.status).toBe("fulfilled");
    expect(await messagesOf(db, left!.contactId)).toEqual([]);
    expect(await messagesOf(db, staying!.contactId)).toEqual(["still here"]);
  });

  it("commits each message of a failed batch alone, none lost, none twice", async () => {
    const all = await chats(4);
    const first = send(centre, all[0]!, "another of the same batch");
    writes.failNext = 2; // the batch of these five (its statement, then its transaction)
    const sent = await Promise.all(
      all.map((chat) => send(centre, chat, "in the failed batch", "k")),
    );
    await first;
    expect(new Set(sent.map((i) => i.Id)).size).toBe(4);
    for (const chat of all) {
      expect(
        (await messagesOf(db, chat.contactId)).filter((c) => c === "in the failed batch"),
      ).toEqual(["in the failed batch"]);
    }
  });

  it("fails a sender's later messages of a failed batch once one fails alone, so none overtakes it", async () => {
    const [chat, other] = await chats(2);
    writes.count = 0;
    writes.failNext = 3; // the batch (its statement, its transaction), then "one" alone
    const [one, two, others] = await Promise.allSettled([
      send(centre, chat!, "one"),
      send(centre, chat!, "two"),
      send(centre, other!, "another sender's"),
    ]);
    expect(one).toMatchObject({ status: "rejected", reason: { message: /injected/ } });
    expect(two).toMatchObject({ status: "rejected", reason: { message: /injected/ } });
    expect(others.status).toBe("fulfilled");
    // The batch, "one" alone, "another sender's" alone; "two" was not tried.
    expect(writes.count).toBe(4);
    expect(await messagesOf(db, chat!.contactId)).toEqual([]);
    expect(await messagesOf(db, other!.contactId)).toEqual(["another sender's"]);
  });

  it("commits a contact's other changes after the messages queued before them", async () => {
    const [busy, chat] = await chats(2);
    const first = send(centre, busy!, "another contact's, in the same batch");
    // The customer leaves while its message waits for the batch: the leaving waits for it.
    const message = send(centre, chat!, "goodbye");
    const leaving = centre.disconnectParticipant(chat!.contactId, chat!.participantId);
    await Promise.all([first, message, leaving]);
    const items = await stored(db, chat!.contactId);
    expect(items.map((i) => i.Content ?? i.ContentType)).toEqual([
      ContentType.PARTICIPANT_JOINED,
      "goodbye",
      ContentType.PARTICIPANT_LEFT,
      ContentType.CHAT_ENDED,
    ]);
  });

  it("stores the flow's message under its own Id once, in the same batch and in a later one, as its name says", async () => {
    const [busy, chat] = await chats(2);
    const bot = await centre.addParticipant(chat!.contactId, "SYSTEM", "BOT");
    const say = (content: string, own: { id?: string; completes?: string }) =>
      centre.postMessage(chat!.contactId, bot.participantId, {
        contentType: "text/plain",
        content,
        displayName: "Assistant",
        ...own,
      });
    const first = send(centre, busy!, "another contact's, in the same batch");
    const [greeting, again] = await Promise.all([
      say("Hello!", { id: "step-1" }),
      say("Hello, whatever it says now", { id: "step-1" }),
    ]);
    await first;
    const later = await say("Hello once more", { id: "step-1" });
    const completed = await say("The whole answer", { completes: "stream-1" });
    expect(greeting).toMatchObject({ Id: "step-1", DisplayName: "Assistant", Content: "Hello!" });
    expect(again).toEqual(greeting);
    expect(later).toEqual(greeting);
    expect(completed).toMatchObject({
      Id: "stream-1",
      MessageMetadata: { MessageId: "stream-1", MessageCompleted: true },
    });
    expect(await messagesOf(db, chat!.contactId)).toEqual(["Hello!", "The whole answer"]);
    // A customer cannot choose its message's Id.
    const customer = await centre.postMessage(chat!.contactId, chat!.participantId, {
      contentType: "text/plain",
      content: "mine",
      id: "step-1",
    });
    expect(customer.Id).not.toBe("step-1");
  });
});

// A batch is written first without a transaction (MessageBatch's writeUnlocked): it reads
// the senders (on PostgreSQL, where none are kept), then one statement appends each contact's items only where the contact's row
// is still at the version read. A change to a contact between the two is injected here.
describe("a batch written without a transaction (postgres)", () => {
  let server: TestServer;
  let centre: DbContactCentre;
  let db: Db;
  let realQuery: Db["query"];
  /** Run once, right after the next read of the senders, before the batch's write. */
  let afterRead: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    server = await startServer("postgres");
    centre = server.built.deps.centre as DbContactCentre;
    db = server.built.deps.db;
    realQuery = db.query.bind(db);
    db.query = (async (sql: string, params?: unknown[]) => {
      const rows = await realQuery(sql, params);
      if (isUnlockedSendersRead(sql)) {
        const change = afterRead;
        afterRead = null;
        await change?.();
      }
      return rows;
    }) as Db["query"];
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    if (db) db.query = realQuery;
    await server?.close();
  }, START_TIMEOUT_MS);

  const transcript = async (contactId: string) =>
    (
      await realQuery<{ seq: number; item: Item }>(
        "SELECT seq, item FROM items WHERE contact_id = $1 ORDER BY seq",
        [contactId],
      )
    ).map((r) => `${r.seq} ${r.item.Content ?? r.item.ContentType}`);

  it("writes a batch in two statements and no transaction", async () => {
    const [a, b] = await Promise.all([server.startChat(), server.startChat()]);
    const recorder = recordTransactions(db);
    let statements: string[];
    try {
      statements = await statementsDuring(db, /JOIN contacts c|INSERT INTO items/, async () => {
        await Promise.all([send(centre, a!, "a1"), send(centre, a!, "a2"), send(centre, b!, "b1")]);
      });
    } finally {
      recorder.restore();
    }
    expect(recorder.seen).toEqual([]);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(UNLOCKED_WRITE);
    expect(await transcript(a!.contactId)).toEqual([
      `1 ${ContentType.PARTICIPANT_JOINED}`,
      "2 a1",
      "3 a2",
    ]);
  });

  it("writes under lock, after the change, the messages of a contact changed since it was read; the others without", async () => {
    const [changed, other] = await Promise.all([server.startChat(), server.startChat()]);
    const heard: { content: string | undefined; attributes: Record<string, string> }[] = [];
    const stop = centre.onItemCommitted((contact, item) => {
      if (contact.contactId === changed!.contactId && item.Type === "MESSAGE") {
        heard.push({ content: item.Content, attributes: contact.attributes });
      }
    });
    afterRead = async () => {
      await realQuery(
        `UPDATE contacts SET attributes = attributes || '{"changed": "meanwhile"}' WHERE contact_id = $1`,
        [changed!.contactId],
      );
    };
    const recorder = recordTransactions(db);
    let sent: Item[];
    try {
      sent = await Promise.all([
        send(centre, changed!, "one"),
        send(centre, other!, "other"),
        send(centre, changed!, "two"),
      ]);
    } finally {
      recorder.restore();
      await centre.idle();
      stop();
    }
    expect(afterRead).toBeNull();
    // Only the changed contact's messages went through the transaction, which locks.
    expect(recorder.seen).toHaveLength(1);
    expect(recorder.seen[0]!.join(" ")).toMatch(/FOR UPDATE/);
    expect(sent.map((i) => i.Content)).toEqual(["one", "other", "two"]);
    expect(await transcript(changed!.contactId)).toEqual([
      `1 ${ContentType.PARTICIPANT_JOINED}`,
      "2 one",
      "3 two",
    ]);
    expect(await transcript(other!.contactId)).toEqual([
      `1 ${ContentType.PARTICIPANT_JOINED}`,
      "2 other",
    ]);
    // The listeners saw the contact as it was when its messages committed.
    expect(heard).toEqual([
      { content: "one", attributes: expect.objectContaining({ changed: "meanwhile" }) },
      { content: "two", attributes: expect.objectContaining({ changed: "meanwhile" }) },
    ]);
  });

  it("refuses, and writes nothing into, a chat that ended between the read and the write", async () => {
    const [ending, other] = await Promise.all([server.startChat(), server.startChat()]);
    afterRead = async () => {
      await realQuery(
        "UPDATE contacts SET status = 'ended', ended_at = now() WHERE contact_id = $1",
        [ending!.contactId],
      );
    };
    const [refused, accepted] = await Promise.allSettled([
      send(centre, ending!, "too late"),
      send(centre, other!, "in time"),
    ]);
    expect(afterRead).toBeNull();
    expect(refused).toMatchObject({
      status: "rejected",
      reason: { message: "The participant has left or the chat has ended." },
    });
    expect(accepted.status).toBe("fulfilled");
    expect(await transcript(ending!.contactId)).toEqual([`1 ${ContentType.PARTICIPANT_JOINED}`]);
    expect(await transcript(other!.contactId)).toEqual([
      `1 ${ContentType.PARTICIPANT_JOINED}`,
      "2 in time",
    ]);
  });
});

// A chat's senders are kept from one batch to the next (SenderCache): a hint that the write's
// version check keeps honest.
describe.each(ENGINES)("senders kept between batches (%s)", (engine) => {
  let server: TestServer;
  let centre: DbContactCentre;
  let db: Db;

  beforeAll(async () => {
    server = await startServer(engine);
    centre = server.built.deps.centre as DbContactCentre;
    db = server.built.deps.db;
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  /** A change to the contact's row behind the centre's back, as any change makes one. */
  const touch = (contactId: string, set = "last_seq = last_seq") =>
    db.query(`UPDATE contacts SET ${set} WHERE contact_id = $1`, [contactId]);

  it("writes a chat's next batch in one statement, its senders not read again", async () => {
    const chat = await server.startChat();
    await send(centre, chat, "first");
    const recorder = recordTransactions(db);
    let statements: string[];
    try {
      statements = await statementsDuring(db, /JOIN contacts c|INSERT INTO items/, async () => {
        await send(centre, chat, "second");
      });
    } finally {
      recorder.restore();
    }
    expect(recorder.seen).toEqual([]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(UNLOCKED_WRITE);
    expect(await messagesOf(db, chat.contactId)).toEqual(["first", "second"]);
  });

  it("refuses, and writes nothing into, a chat that ended behind the kept senders' back", async () => {
    const chat = await server.startChat();
    await send(centre, chat, "before");
    await touch(chat.contactId, "status = 'ended', ended_at = now()");
    await expect(send(centre, chat, "after")).rejects.toThrow(
      "The participant has left or the chat has ended.",
    );
    expect(await messagesOf(db, chat.contactId)).toEqual(["before"]);
  });

  it("refuses a kept sender who left, once its chat was read again for another sender", async () => {
    const chat = await server.startChat();
    const agent = await centre.addParticipant(chat.contactId, "AGENT", "Sam");
    await send(centre, chat, "customer 1");
    // The customer leaves behind the centre's back (its contact's row changes, as leaving's
    // does), then the advisor's message reads the chat again.
    await db.query("UPDATE participants SET left_at = now() WHERE participant_id = $1", [
      chat.participantId,
    ]);
    await touch(chat.contactId);
    await send(centre, { ...chat, participantId: agent.participantId }, "advisor 1");
    await expect(send(centre, chat, "customer 2")).rejects.toThrow(
      "The participant has left or the chat has ended.",
    );
    expect(await messagesOf(db, chat.contactId)).toEqual(["customer 1", "advisor 1"]);
  });

  it("sees a participant leave and attributes change through the centre at once", async () => {
    const chat = await server.startChat();
    const agent = await centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const asAgent = { ...chat, participantId: agent.participantId };
    await Promise.all([send(centre, chat, "hello"), send(centre, asAgent, "hi")]);
    await centre.updateAttributes(chat.contactId, { tier: "gold" }, "flow");
    const heard: Record<string, string>[] = [];
    const stop = centre.onItemCommitted((contact, item) => {
      if (contact.contactId === chat.contactId && item.Type === "MESSAGE") {
        heard.push(contact.attributes);
      }
    });
    try {
      await send(centre, asAgent, "noted");
    } finally {
      stop();
    }
    expect(heard).toEqual([expect.objectContaining({ tier: "gold" })]);
    await centre.disconnectParticipant(chat.contactId, agent.participantId);
    await expect(send(centre, asAgent, "still here?")).rejects.toThrow(
      "The participant has left or the chat has ended.",
    );
    expect(await messagesOf(db, chat.contactId)).toEqual(["hello", "hi", "noted"]);
  });
});
