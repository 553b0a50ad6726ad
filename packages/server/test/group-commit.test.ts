import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbContactCentre } from "../src/contact-centre/contact-centre.js";
import type { NewParticipant } from "../src/contact-centre/types.js";
import type { Db } from "../src/store/db.js";
import { ENGINES } from "./support/databases.js";
import { recordTransactions } from "./support/statements.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

// SendMessage's group commit (src/contact-centre/message-batch.ts): messages arriving while a
// transaction runs commit together, each checked and answered as it would be alone.
describe.each(ENGINES)("group commit of messages (%s)", (engine) => {
  let server: TestServer;
  let centre: DbContactCentre;
  let db: Db;
  let realTransaction: Db["transaction"];
  /** How many transactions began since the last reset, and a failure to inject. */
  const transactions = { count: 0, failNext: 0 };

  beforeAll(async () => {
    server = await startServer(engine);
    centre = server.built.deps.centre as DbContactCentre;
    db = server.built.deps.db;
    realTransaction = db.transaction.bind(db);
    db.transaction = (fn) => {
      transactions.count++;
      if (transactions.failNext > 0) {
        transactions.failNext--;
        return Promise.reject(new Error("injected: the transaction failed"));
      }
      return realTransaction(fn);
    };
  }, START_TIMEOUT_MS);
  afterEach(() => {
    transactions.count = 0;
    transactions.failNext = 0;
  });
  afterAll(async () => {
    if (db) db.transaction = realTransaction;
    await server?.close();
  }, START_TIMEOUT_MS);

  const chats = (n: number) => Promise.all(Array.from({ length: n }, () => server.startChat()));
  const send = (chat: NewParticipant, content: string, clientToken?: string) =>
    centre.postMessage(chat.contactId, chat.participantId, {
      contentType: "text/plain",
      content,
      ...(clientToken ? { clientToken } : {}),
    });
  const stored = async (contactId: string): Promise<Item[]> =>
    (
      await db.query<{ item: Item }>("SELECT item FROM items WHERE contact_id = $1 ORDER BY seq", [
        contactId,
      ])
    ).map((r) => r.item);
  const messagesOf = async (contactId: string) =>
    (await stored(contactId)).filter((i) => i.Type === "MESSAGE").map((i) => i.Content);

  it("commits many contacts' messages in a few transactions, each stored once, in order", async () => {
    const all = await chats(20);
    transactions.count = 0;
    const sent = await Promise.all(
      all.flatMap((chat) => [1, 2, 3].map((n) => send(chat, `${chat.contactId} #${n}`, `t${n}`))),
    );
    // Posted within one turn of the event loop: one transaction for all 60.
    expect(transactions.count).toBe(1);
    for (const chat of all) {
      const items = (await stored(chat.contactId)).filter((i) => i.Type === "MESSAGE");
      expect(items.map((i) => i.Content)).toEqual([1, 2, 3].map((n) => `${chat.contactId} #${n}`));
      const answered = sent.filter((item) => item.ContactId === chat.contactId);
      expect(answered.map((i) => i.Id)).toEqual(items.map((i) => i.Id));
    }
  });

  it("writes a batch's items and the ClientTokens it records in one statement", async () => {
    const all = await chats(3);
    const recorder = recordTransactions(db);
    try {
      await Promise.all(all.map((chat, n) => send(chat, `keyed #${n}`, `key ${n}`)));
    } finally {
      recorder.restore();
    }
    expect(recorder.seen).toHaveLength(1);
    const writes = recorder.seen[0]!.filter((q) => /INSERT INTO (items|idempotency)/.test(q));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/INSERT INTO items .* INSERT INTO idempotency/);
    // Recorded: the same tokens answer with the same items.
    const again = await Promise.all(all.map((chat, n) => send(chat, `keyed #${n}`, `key ${n}`)));
    for (const [n, chat] of all.entries()) {
      expect(await messagesOf(chat.contactId)).toEqual([`keyed #${n}`]);
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
      first = await Promise.all([send(a!, "a1", "ta1"), send(b!, "b1", "tb1")]);
      expect(recorder.seen.map(lookups)).toEqual([0]);
      recorder.seen.length = 0;
      // b's retry of its first message beside a's new one: the first write finds the repeat
      // and is undone; the second looks the tokens up.
      mixed = await Promise.all([send(a!, "a2", "ta2"), send(b!, "b1", "tb1")]);
      expect(recorder.seen.map(lookups)).toEqual([0, 1]);
    } finally {
      recorder.restore();
    }
    expect(mixed[1]!.Id).toBe(first[1]!.Id);
    expect(await messagesOf(a!.contactId)).toEqual(["a1", "a2"]);
    expect(await messagesOf(b!.contactId)).toEqual(["b1"]);
    // a2's token was recorded by the second write, not lost with the first.
    expect((await send(a!, "a2", "ta2")).Id).toBe(mixed[0]!.Id);
    expect(await messagesOf(a!.contactId)).toEqual(["a1", "a2"]);
  });

  it("answers a repeated ClientToken with the first item, in the same batch and in a later one", async () => {
    const [busy, chat] = await chats(2);
    const first = send(busy!, "another contact's, in the same batch");
    const twice = await Promise.all([send(chat!, "once", "same"), send(chat!, "once", "same")]);
    await first;
    const later = await send(chat!, "once", "same");
    expect(twice[1]!.Id).toBe(twice[0]!.Id);
    expect(later.Id).toBe(twice[0]!.Id);
    // Another content under the same token is another request.
    const other = await send(chat!, "other", "same");
    expect(other.Id).not.toBe(twice[0]!.Id);
    expect(await messagesOf(chat!.contactId)).toEqual(["once", "other"]);
  });

  it("refuses a sender who left without refusing the others in its batch", async () => {
    const [busy, left, staying] = await chats(3);
    await centre.disconnectParticipant(left!.contactId, left!.participantId);
    const first = send(busy!, "another contact's, in the same batch");
    const [refused, accepted, stranger] = await Promise.allSettled([
      send(left!, "after leaving"),
      send(staying!, "still here"),
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
    expect(await messagesOf(left!.contactId)).toEqual([]);
    expect(await messagesOf(staying!.contactId)).toEqual(["still here"]);
  });

  it("commits each message of a failed batch alone, none lost, none twice", async () => {
    const all = await chats(4);
    const first = send(all[0]!, "another of the same batch");
    transactions.failNext = 1; // the batch of these five
    const sent = await Promise.all(all.map((chat) => send(chat, "in the failed batch", "k")));
    await first;
    expect(new Set(sent.map((i) => i.Id)).size).toBe(4);
    for (const chat of all) {
      expect((await messagesOf(chat.contactId)).filter((c) => c === "in the failed batch")).toEqual(
        ["in the failed batch"],
      );
    }
  });

  it("fails a sender's later messages of a failed batch once one fails alone, so none overtakes it", async () => {
    const [chat, other] = await chats(2);
    transactions.count = 0;
    transactions.failNext = 2; // the batch, then the first message alone
    const [one, two, others] = await Promise.allSettled([
      send(chat!, "one"),
      send(chat!, "two"),
      send(other!, "another sender's"),
    ]);
    expect(one).toMatchObject({ status: "rejected", reason: { message: /injected/ } });
    expect(two).toMatchObject({ status: "rejected", reason: { message: /injected/ } });
    expect(others.status).toBe("fulfilled");
    // The batch, "one" alone, "another sender's" alone; "two" was not tried.
    expect(transactions.count).toBe(3);
    expect(await messagesOf(chat!.contactId)).toEqual([]);
    expect(await messagesOf(other!.contactId)).toEqual(["another sender's"]);
  });

  it("commits a contact's other changes after the messages queued before them", async () => {
    const [busy, chat] = await chats(2);
    const first = send(busy!, "another contact's, in the same batch");
    // The customer leaves while its message waits for the batch: the leaving waits for it.
    const message = send(chat!, "goodbye");
    const leaving = centre.disconnectParticipant(chat!.contactId, chat!.participantId);
    await Promise.all([first, message, leaving]);
    const items = await stored(chat!.contactId);
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
    const first = send(busy!, "another contact's, in the same batch");
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
    expect(await messagesOf(chat!.contactId)).toEqual(["Hello!", "The whole answer"]);
    // A customer cannot choose its message's Id.
    const customer = await centre.postMessage(chat!.contactId, chat!.participantId, {
      contentType: "text/plain",
      content: "mine",
      id: "step-1",
    });
    expect(customer.Id).not.toBe("step-1");
  });
});
