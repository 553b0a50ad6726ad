import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../src/store/db.js";
import { ENGINES } from "../support/databases.js";
import { defaultFlowWith } from "../support/flows.js";
import { recordTransactions, statementsDuring } from "../support/statements.js";
import { startServer, type TestServer } from "../support/server.js";
import {
  isAssistant,
  isBotText,
  isPicker,
  postStartChat,
  widgetCustomer,
  type Customer,
} from "./helpers.js";

// The gateway's start-chat opens the chat with its flow (FlowRunner.startChat): the flow's
// leading lines, its SYSTEM participant joining to say them and its position are committed in
// the chat's own statement; what follows those lines is performed once the chat is committed.

const count = async (db: Db, sql: string) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`))[0]!.n;

describe.each(ENGINES)("the chat's opening (%s)", (engine) => {
  let server: TestServer;
  let customer: Customer | undefined;
  let recorder: ReturnType<typeof recordTransactions>;
  beforeAll(async () => {
    server = await startServer(engine, { features: true });
    recorder = recordTransactions(server.built.deps.db);
  }, 120_000);
  afterAll(async () => {
    recorder?.restore();
    await server?.close();
  });
  afterEach(() => {
    customer?.close();
    recorder.seen.length = 0;
  });

  it("commits the chat, the flow's participant, its lines and its position in one statement", async () => {
    const db = server.built.deps.db;
    const writes = await statementsDuring(db, /INSERT INTO/, async () => {
      customer = await widgetCustomer(server, null);
      await customer.waitFor(isPicker);
    });
    const items = customer!.items();
    const opening = items.slice(0, 5);
    expect(opening.map((i) => [i.ParticipantRole, i.ContentType])).toEqual([
      ["CUSTOMER", ContentType.PARTICIPANT_JOINED],
      ["SYSTEM", ContentType.PARTICIPANT_JOINED],
      ["SYSTEM", ContentType.TEXT_MARKDOWN],
      ["SYSTEM", ContentType.TEXT_PLAIN],
      ["SYSTEM", ContentType.INTERACTIVE_MESSAGE],
    ]);
    expect(isAssistant(opening[2]!)).toBe(true);
    expect(isBotText(opening[3]!)).toBe(true);
    expect(new Set(opening.slice(1).map((i) => i.ParticipantId)).size).toBe(1);
    // One statement wrote the chat, its items and its position; nothing else wrote an item,
    // neither alone nor in a transaction.
    const starting = writes.filter((q) => q.includes("INSERT INTO contacts"));
    expect(starting).toHaveLength(1);
    expect(starting[0]).toContain("INSERT INTO flow_positions");
    expect(writes.filter((q) => q.includes("INSERT INTO items"))).toEqual(starting);
    expect(recorder.seen.filter((s) => s.some((q) => q.includes("INSERT INTO items")))).toEqual([]);
    const [position] = await db.query<{
      pending_effects: unknown;
      assistant_participant_id: string;
    }>(
      "SELECT pending_effects, assistant_participant_id FROM flow_positions WHERE contact_id = $1",
      [customer!.contactId],
    );
    expect(position).toMatchObject({
      pending_effects: [],
      assistant_participant_id: opening[1]!.ParticipantId,
    });
    // The flow goes on from its stored position: the customer's choice is answered.
    await customer!.echoBot();
    await customer!.say("Where is my order?");
    await customer!.waitFor((i) => isBotText(i) && i.Content === "input");
  });

  it("a start whose position fails in its statement leaves nothing behind, and the next start opens as usual", async () => {
    const db = server.built.deps.db;
    // A real failure inside the statement: the first position inserted raises (a sequence's
    // value survives the rollback, so only the first does).
    await db.exec(`
      CREATE SEQUENCE fail_positions;
      CREATE FUNCTION fail_position() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('fail_positions') = 1 THEN RAISE EXCEPTION 'injected'; END IF;
          RETURN NEW;
        END $$;
      CREATE TRIGGER fail_position BEFORE INSERT ON flow_positions
        FOR EACH ROW EXECUTE FUNCTION fail_position();`);
    try {
      const tables = ["contacts", "participants", "items", "flow_positions"];
      const before = await Promise.all(tables.map((t) => count(db, t)));
      const refused = await postStartChat(server);
      expect(refused.status).toBe(500);
      expect(await Promise.all(tables.map((t) => count(db, t)))).toEqual(before);
      customer = await widgetCustomer(server, null);
      await customer.waitFor(isPicker);
      expect(customer.items().filter((i: Item) => isAssistant(i))).toHaveLength(1);
    } finally {
      await db.exec(`DROP TRIGGER fail_position ON flow_positions;
        DROP FUNCTION fail_position(); DROP SEQUENCE fail_positions;`);
    }
  });
});

describe("a flow that opens with a line and goes on with other steps", () => {
  let server: TestServer;
  let customer: Customer | undefined;
  beforeAll(async () => {
    const flowsDir = defaultFlowWith((flow) => {
      flow.states[flow.start]!.actions = [
        { say: "Hello first." },
        { setAttributes: { opened: "yes" } },
        { say: "Then this." },
      ];
    });
    server = await startServer("pglite", { features: true, flowsDir });
  }, 120_000);
  afterAll(async () => {
    customer?.close();
    await server?.close();
  });

  it("says its first line with the chat, then performs the rest once the chat is committed", async () => {
    customer = await widgetCustomer(server, null);
    await customer.waitFor((i) => i.Content === "Then this.");
    const lines = customer
      .items()
      .filter((i) => i.Type === "MESSAGE")
      .map((i) => i.Content);
    expect(lines.slice(0, 2)).toEqual(["Hello first.", "Then this."]);
    const contact = await server.built.deps.centre.getContact(customer.contactId);
    expect(contact!.attributes).toMatchObject({ opened: "yes" });
    await vi.waitFor(
      async () => {
        const [row] = await server.built.deps.db.query<{ pending_effects: unknown }>(
          "SELECT pending_effects FROM flow_positions WHERE contact_id = $1",
          [customer!.contactId],
        );
        expect(row!.pending_effects).toEqual([]);
      },
      { timeout: 10_000 },
    );
  });
});
