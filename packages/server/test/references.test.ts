import { randomUUID } from "node:crypto";
import type { Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendItems } from "../src/contact-centre/items-repo.js";
import { insertParticipant } from "../src/contact-centre/participants-repo.js";
import type { NewParticipant } from "../src/contact-centre/types.js";
import type { Db } from "../src/store/db.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const AT = "2026-11-30T12:00:00.000Z";

// Migration 109 took the foreign keys off the tables every set-up and message writes; their
// writers keep the references instead: a write that names a contact or participant the store
// does not hold writes nothing.
describe.each(ENGINES)("references without foreign keys (%s)", (engine) => {
  let server: TestServer;
  let db: Db;
  let chat: NewParticipant;

  beforeAll(async () => {
    server = await startServer(engine);
    db = server.built.deps.db;
    chat = await server.startChat();
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const item = (contactId: string): Item =>
    ({
      Id: randomUUID(),
      Type: "MESSAGE",
      ContentType: "text/plain",
      Content: "hello",
      AbsoluteTime: AT,
      ContactId: contactId,
    }) as Item;
  const lastSeq = async (contactId: string) =>
    (
      await db.query<{ last_seq: number }>("SELECT last_seq FROM contacts WHERE contact_id = $1", [
        contactId,
      ])
    )[0]?.last_seq;
  const itemsOf = async (contactId: string) =>
    (
      await db.query<{ n: number }>("SELECT count(*)::int AS n FROM items WHERE contact_id = $1", [
        contactId,
      ])
    )[0]!.n;

  it("checks no reference on the tables a set-up and a message write, and still on the rest", async () => {
    const foreignKeys = await db.query<{ table: string }>(
      `SELECT conrelid::regclass::text AS table FROM pg_constraint
       WHERE contype = 'f' AND conrelid = ANY (ARRAY['items', 'participants', 'connection_tokens',
         'websocket_tokens', 'attachments']::regclass[])`,
    );
    expect(foreignKeys.map((k) => k.table)).toEqual(["attachments", "attachments"]);
  });

  it("appends items to a contact it holds", async () => {
    const seq = (await lastSeq(chat.contactId))!;
    const before = await itemsOf(chat.contactId);
    await db.transaction((tx) =>
      appendItems(tx, [{ contactId: chat.contactId, lastSeq: seq, items: [item(chat.contactId)] }]),
    );
    expect(await lastSeq(chat.contactId)).toBe(seq + 1);
    expect(await itemsOf(chat.contactId)).toBe(before + 1);
  });

  it("appends nothing, to any contact, when one of them is not in the store", async () => {
    const seq = (await lastSeq(chat.contactId))!;
    const before = await itemsOf(chat.contactId);
    const stranger = randomUUID();
    await expect(
      db.transaction((tx) =>
        appendItems(tx, [
          { contactId: chat.contactId, lastSeq: seq, items: [item(chat.contactId)] },
          { contactId: stranger, lastSeq: 0, items: [item(stranger), item(stranger)] },
        ]),
      ),
    ).rejects.toThrow("1 of its contacts are not in the store");
    expect(await itemsOf(stranger)).toBe(0);
    expect(await itemsOf(chat.contactId)).toBe(before);
    expect(await lastSeq(chat.contactId)).toBe(seq);
    // Even outside a transaction, where nothing rolls back: the stranger's items are never written.
    await expect(
      appendItems(db, [{ contactId: stranger, lastSeq: 0, items: [item(stranger)] }]),
    ).rejects.toThrow("1 of its contacts are not in the store");
    expect(await itemsOf(stranger)).toBe(0);
  });

  it("adds no participant to a contact that is not in the store", async () => {
    const participantId = randomUUID();
    const row = {
      participantId,
      role: "AGENT" as const,
      displayName: "Advisor",
      tokenHash: randomUUID(),
      createdAt: AT,
    };
    expect(await insertParticipant(db, { ...row, contactId: randomUUID() })).toBe(false);
    const stored = () =>
      db.query("SELECT 1 FROM participants WHERE participant_id = $1", [participantId]);
    expect(await stored()).toHaveLength(0);
    // The same participant into the chat that is: written.
    expect(await insertParticipant(db, { ...row, contactId: chat.contactId })).toBe(true);
    expect(await stored()).toHaveLength(1);
  });

  it("leaves no row naming a contact or participant that is not there after chats are used", async () => {
    const chats = await Promise.all([1, 2, 3].map((n) => server.startChat(`Customer ${n}`)));
    const { centre } = server.built.deps;
    for (const c of chats) {
      await centre.createConnection(c.contactId, c.participantId, {
        websocket: true,
        credentials: true,
        connect: true,
      });
      await centre.postMessage(c.contactId, c.participantId, {
        contentType: "text/plain",
        content: "hi",
      });
    }
    const [orphans] = await db.query<Record<string, number>>(
      `SELECT
         (SELECT count(*)::int FROM items i
           WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.contact_id = i.contact_id)) AS items,
         (SELECT count(*)::int FROM participants p
           WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.contact_id = p.contact_id)) AS participants,
         (SELECT count(*)::int FROM connection_tokens t
           WHERE NOT EXISTS (SELECT 1 FROM participants p WHERE p.participant_id = t.participant_id)) AS connection_tokens,
         (SELECT count(*)::int FROM websocket_tokens t
           WHERE NOT EXISTS (SELECT 1 FROM participants p WHERE p.participant_id = t.participant_id)) AS websocket_tokens,
         (SELECT count(*)::int FROM items WHERE contact_id = ANY($1::text[])) AS written`,
      [chats.map((c) => c.contactId)],
    );
    expect(orphans).toEqual({
      items: 0,
      participants: 0,
      connection_tokens: 0,
      websocket_tokens: 0,
      written: expect.any(Number),
    });
    expect(orphans!.written).toBeGreaterThanOrEqual(chats.length * 2);
  });
});
