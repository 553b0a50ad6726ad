import type { Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChatOpening, NewParticipant } from "../src/contact-centre/types.js";
import type { Db } from "../src/store/db.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";
import { countStatements, type CountedStatements } from "./support/statements.js";

// Start-chat's group commit (DbContactCentre.startChat over store/group-commit.ts): chats started
// while a write runs commit together, in one statement; each is answered once it is committed.
describe.each(ENGINES)("group commit of new chats (%s)", (engine) => {
  let server: TestServer;
  let db: Db;
  /** Statements that inserted contacts since the last reset, and failures to inject. */
  let starts: CountedStatements;

  beforeAll(async () => {
    server = await startServer(engine);
    db = server.built.deps.db;
    starts = countStatements(db, "INSERT INTO contacts");
  }, START_TIMEOUT_MS);
  afterEach(() => {
    starts.statements = 0;
    starts.failNext = 0;
  });
  afterAll(async () => {
    starts?.restore();
    await server?.close();
  }, START_TIMEOUT_MS);

  const startMany = (names: string[]) =>
    Promise.allSettled(names.map((name) => server.startChat(name)));
  const names = (n: number) => Array.from({ length: n }, (_, i) => `Customer ${i}`);

  /** What the store holds of a started chat: its contact, customer and first item. */
  async function stored(chat: NewParticipant) {
    const contacts = await db.query<{ last_seq: number; status: string }>(
      "SELECT last_seq, status FROM contacts WHERE contact_id = $1",
      [chat.contactId],
    );
    const customers = await db.query<{ display_name: string }>(
      "SELECT display_name FROM participants WHERE participant_id = $1 AND contact_id = $2",
      [chat.participantId, chat.contactId],
    );
    const [first] = await db.query<{ item: Item }>(
      "SELECT item FROM items WHERE contact_id = $1 AND seq = 1",
      [chat.contactId],
    );
    return { contacts, customers, first: first?.item };
  }

  async function expectWhole(chat: NewParticipant, name: string) {
    const { contacts, customers, first } = await stored(chat);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]!.last_seq).toBeGreaterThanOrEqual(1);
    expect(customers.map((c) => c.display_name)).toEqual([name]);
    expect(first).toMatchObject({
      ContentType: "application/vnd.amazonaws.connect.event.participant.joined",
      ParticipantId: chat.participantId,
      DisplayName: name,
    });
  }

  const fulfilled = (results: PromiseSettledResult<NewParticipant>[]) =>
    results.map((r) => {
      if (r.status !== "fulfilled") throw r.reason;
      return r.value;
    });

  it("commits chats started together in one statement, each whole", async () => {
    const all = fulfilled(await startMany(names(20)));
    expect(starts.statements).toBe(1);
    expect(new Set(all.map((c) => c.contactId)).size).toBe(20);
    for (const [i, chat] of all.entries()) await expectWhole(chat, `Customer ${i}`);
  });

  /** Openings whose writes mark their chats in `opening_marks`, each write under its name. */
  async function openingMarks() {
    await db.exec(
      "CREATE TABLE IF NOT EXISTS opening_marks (write text NOT NULL, contact_id text NOT NULL)",
    );
    const calls: { write: string; kept: unknown[] }[] = [];
    const writer =
      (write: string): ChatOpening["write"] =>
      (kept) => {
        calls.push({ write, kept });
        return {
          sql: (first) =>
            `INSERT INTO opening_marks (write, contact_id)
             SELECT $${first}, unnest($${first + 1}::text[])`,
          params: [write, kept],
        };
      };
    const opened = (name: string, write: ChatOpening["write"] | null) =>
      server.built.deps.centre.startChat(
        {
          instanceId: "demo-instance",
          contactFlowId: "default-flow",
          displayName: name,
          supportedContentTypes: ["text/plain"],
        },
        async (contact) =>
          write && {
            speaker: { participantId: `${contact.contactId}-flow`, displayName: "Flow" },
            lines: [],
            kept: contact.contactId,
            write,
          },
      );
    const marks = async (ids: string[]) =>
      (
        await db.query<{ write: string; contact_id: string }>(
          "SELECT write, contact_id FROM opening_marks WHERE contact_id = ANY($1::text[])",
          [ids],
        )
      ).map((m) => [m.write, ids.indexOf(m.contact_id)]);
    return { calls, a: writer("a"), b: writer("b"), opened, marks };
  }

  it("writes the openings of chats started together in their statement, one part per write", async () => {
    const { calls, a, b, opened, marks } = await openingMarks();
    const all = await Promise.all([
      opened("A1", a),
      opened("B1", b),
      opened("none", null),
      opened("A2", a),
    ]);
    expect(starts.statements).toBe(1);
    const ids = all.map((c) => c.contactId);
    expect(calls.map((c) => [c.write, c.kept.map((id) => ids.indexOf(id as string))])).toEqual([
      ["a", [0, 3]],
      ["b", [1]],
    ]);
    expect((await marks(ids)).sort()).toEqual([
      ["a", 0],
      ["a", 3],
      ["b", 1],
    ]);
  });

  it("writes each chat of a failed batch alone with its own opening, and none of a refused one", async () => {
    const { a, opened, marks } = await openingMarks();
    starts.failNext = 1;
    const results = await Promise.allSettled([
      opened("A1", a),
      opened("Bad\u0000name", a),
      opened("A3", a),
    ]);
    // The failed batch, then each alone: the chat the store cannot hold is refused whole.
    expect(starts.statements).toBe(4);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const ids = results.map((r) => (r.status === "fulfilled" ? r.value.contactId : "none"));
    expect((await marks(ids)).sort()).toEqual([
      ["a", 0],
      ["a", 2],
    ]);
  });

  it("commits each chat of a failed batch alone, none lost, none twice", async () => {
    starts.failNext = 1;
    const all = fulfilled(await startMany(names(5)));
    // The failed batch, then each of the five on its own.
    expect(starts.statements).toBe(6);
    for (const [i, chat] of all.entries()) await expectWhole(chat, `Customer ${i}`);
    const ids = all.map((c) => c.contactId);
    const rows = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM contacts WHERE contact_id = ANY($1::text[])",
      [ids],
    );
    expect(rows[0]!.n).toBe(5);
  });

  it("refuses a chat the store cannot hold without refusing the others in its batch", async () => {
    // A NUL character: PostgreSQL's text and jsonb refuse it, so this chat's rows cannot be
    // written; the others of its batch must still start.
    const wanted = ["Customer A", "Bad\u0000name", "Customer C"];
    const results = await startMany(wanted);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await expectWhole((results[0] as PromiseFulfilledResult<NewParticipant>).value, wanted[0]!);
    await expectWhole((results[2] as PromiseFulfilledResult<NewParticipant>).value, wanted[2]!);
    const bad = await db.query("SELECT 1 FROM participants WHERE display_name LIKE 'Bad%'");
    expect(bad).toHaveLength(0);
  });
});
