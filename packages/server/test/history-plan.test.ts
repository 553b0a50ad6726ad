/**
 * Issue 60 (5b): "Search conversations" uses the GIN index over the history's documents, on
 * both stores, in the plan each store keeps for a prepared statement (a generic plan, which
 * is what a statement run many times gets), and a page without a search reads the history by
 * its end-time index instead of sorting it all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listQuery, type HistoryFilter } from "../src/history/conversations-repo.js";
import type { Db } from "../src/store/db.js";
import { openDb } from "../src/store/open-db.js";
import { createTestDatabase, ENGINES, type TestDatabase } from "./support/databases.js";

const ROWS = 5000;
const none: HistoryFilter = {
  from: null,
  to: null,
  advisorId: null,
  visitorLike: null,
  before: null,
  search: null,
  marked: "",
  tag: null,
};

const literal = (v: unknown): string =>
  Array.isArray(v)
    ? `ARRAY[${v.map(literal).join(", ")}]::text[]`
    : typeof v === "number"
      ? String(v)
      : `'${String(v).replace(/'/g, "''")}'`;

/** The generic plan of the page's statement for `filter`. */
async function genericPlan(db: Db, filter: HistoryFilter): Promise<string> {
  const { text, values } = listQuery(filter);
  return db.transaction(async (tx) => {
    await tx.query("SET LOCAL plan_cache_mode = force_generic_plan");
    await tx.query(`PREPARE history_page AS ${text}`);
    const rows = await tx.query<Record<string, string>>(
      `EXPLAIN EXECUTE history_page(${values.map(literal).join(", ")})`,
    );
    await tx.query("DEALLOCATE history_page");
    return rows.map((r) => Object.values(r)[0]).join("\n");
  });
}

describe.each(ENGINES)("the history's query plans (%s)", (engine) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    db = await openDb({ databaseUrl: database.databaseUrl, dataDir: "memory" });
    await db.query(
      `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
       SELECT 'p' || g, 'p' || g, 'i', 'f', 'ended', now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(1, ${ROWS}) g`,
    );
    await db.query(
      `INSERT INTO conversations (contact_id, started_at, ended_at, customer_name, body)
       SELECT 'p' || g, now() - g * interval '1 minute', now() - g * interval '1 minute',
         'Visitor ' || g, 'where is my parcel order number w' || g || ' thank you'
       FROM generate_series(1, ${ROWS}) g`,
    );
    await db.query("ANALYZE conversations");
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it("a search reads the GIN index", async () => {
    const plan = await genericPlan(db, { ...none, search: "w1234" });
    expect(plan).toMatch(/conversations_document/);
    const found = await db.query(
      listQuery({ ...none, search: "w1234" }).text,
      listQuery({ ...none, search: "w1234" }).values,
    );
    expect(found.length).toBe(1);
  });

  it("a page without a search reads the end-time index, not a sort of every row", async () => {
    const plan = await genericPlan(db, none);
    expect(plan).toMatch(/conversations_ended/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});
