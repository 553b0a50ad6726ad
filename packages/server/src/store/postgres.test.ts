import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy } from "../../test/faults/tcp-proxy.js";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.js";
import type { Db } from "./db.js";
import { openPostgres } from "./postgres.js";
import { PreparedNames } from "./postgres-prepared.js";

const SELECT_ROW = "SELECT * FROM t WHERE a = $1";

/** The statements prepared on the connection that runs `tx`, by text. */
async function preparedOn(tx: Db): Promise<string[]> {
  const rows = await tx.query<{ statement: string }>(
    "SELECT statement FROM pg_prepared_statements",
  );
  return rows.map((r) => r.statement);
}

describe("PostgreSQL's prepared statements", () => {
  let database: TestDatabase;
  /** Another process: changes the tables behind the pools' backs. */
  let admin: pg.Client;
  const open: Db[] = [];
  const openDb = async (prepared?: boolean): Promise<Db> => {
    const db = await openPostgres(database.databaseUrl, prepared === undefined ? {} : { prepared });
    open.push(db);
    return db;
  };

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    admin = new pg.Client({ connectionString: database.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    for (const db of open) await db.close();
    await admin?.end();
    await database?.drop();
  });

  /** A fresh table t (a int) holding 1 and 2. */
  async function freshTable(): Promise<void> {
    await admin.query("DROP TABLE IF EXISTS t");
    await admin.query("CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2)");
  }

  it("parses a statement with parameters once on a connection, and one without as the simple protocol", async () => {
    await freshTable();
    const db = await openDb();
    const prepared = await db.transaction(async (tx) => {
      expect(await tx.query(SELECT_ROW, [1])).toEqual([{ a: 1 }]);
      expect(await tx.query(SELECT_ROW, [2])).toEqual([{ a: 2 }]);
      // Several statements in one text: only the simple protocol takes them (a prepared
      // statement refuses them: "cannot insert multiple commands into a prepared statement").
      await tx.query("SELECT 1 AS one; SELECT 2 AS two");
      return preparedOn(tx);
    });
    expect(prepared.filter((s) => s === SELECT_ROW)).toHaveLength(1);
    expect(prepared.some((s) => s.includes("SELECT 1 AS one"))).toBe(false);
  });

  it("prepares nothing with DATABASE_PREPARED_STATEMENTS off", async () => {
    await freshTable();
    const db = await openDb(false);
    const prepared = await db.transaction(async (tx) => {
      expect(await tx.query(SELECT_ROW, [2])).toEqual([{ a: 2 }]);
      return preparedOn(tx);
    });
    expect(prepared).toEqual([]);
  });

  it("runs a statement again, prepared anew, once another process's migration changed its table's shape", async () => {
    await freshTable();
    const db = await openDb();
    expect(await db.query(SELECT_ROW, [1])).toEqual([{ a: 1 }]);
    await admin.query("ALTER TABLE t ADD COLUMN b text");
    // The same pooled connection (the pool hands out the one it was given back), its plan stale.
    expect(await db.query(SELECT_ROW, [1])).toEqual([{ a: 1, b: null }]);
    expect(await db.query(SELECT_ROW, [2])).toEqual([{ a: 2, b: null }]);
  });

  it("runs a transaction again whole when a stale plan aborted it, and commits once", async () => {
    await freshTable();
    const db = await openDb();
    await db.transaction((tx) => tx.query(SELECT_ROW, [1]));
    await admin.query("ALTER TABLE t ADD COLUMN b text");
    let runs = 0;
    const rows = await db.transaction(async (tx) => {
      runs++;
      await tx.query("INSERT INTO t (a) VALUES ($1)", [3]);
      return tx.query(SELECT_ROW, [3]);
    });
    expect(rows).toEqual([{ a: 3, b: null }]);
    expect(runs).toBe(2);
    const { rows: threes } = await admin.query("SELECT a FROM t WHERE a = 3");
    expect(threes).toHaveLength(1);
  });

  it("keeps refusing what is not a stale plan, without running a transaction again", async () => {
    const db = await openDb();
    let runs = 0;
    await expect(
      db.transaction(async (tx) => {
        runs++;
        return tx.query("SELECT * FROM no_such_table WHERE a = $1", [1]);
      }),
    ).rejects.toMatchObject({ code: "42P01" });
    expect(runs).toBe(1);
  });
});

describe("PreparedNames", () => {
  it("names at most `max` texts, each its own name, and a forgotten text a new one", () => {
    const names = new PreparedNames(2);
    const a = names.config("SELECT $1::int", [1]);
    const b = names.config("SELECT $1::text", ["x"]);
    expect(a.name).toBeDefined();
    expect(b.name).toBeDefined();
    expect(a.name).not.toBe(b.name);
    expect(names.config("SELECT $1::int", [2])).toEqual({
      name: a.name,
      text: "SELECT $1::int",
      values: [2],
    });
    // A third text, beyond the bound, runs unnamed.
    expect(names.config("SELECT $1::bool", [true]).name).toBeUndefined();
    names.forget("SELECT $1::int");
    const again = names.config("SELECT $1::int", [3]).name;
    expect(again).toBeDefined();
    expect([a.name, b.name]).not.toContain(again);
    // Without parameters: never named.
    expect(names.config("SELECT 1", []).name).toBeUndefined();
  });
});

describe("PostgreSQL's connections reset in a transaction (a database fail-over, issue 58)", () => {
  it("fail the transaction, not the process; once the database is back the store answers", async () => {
    const database = await createTestDatabase("postgres");
    const url = new URL(database.databaseUrl);
    const proxy = await startTcpProxy(Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    const db = await openPostgres(url.toString());
    const unhandled: unknown[] = [];
    const record = (error: unknown) => unhandled.push(error);
    process.on("uncaughtException", record);
    try {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const transaction = db.transaction(async (tx) => {
        await tx.query("SELECT 1");
        holding();
        await released;
        return tx.query("SELECT 2");
      });
      const outcome = transaction.then(
        () => "committed",
        () => "failed",
      );
      await held;
      // Every connection reset, the transaction's among them, while it holds its client.
      await proxy.set("refuse");
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      expect(await outcome).toBe("failed");
      await proxy.set("pass");
      await expect
        .poll(() => db.query("SELECT 3 AS n").catch(() => null), { timeout: 10_000 })
        .toEqual([{ n: 3 }]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
      await db.close();
      await proxy.close();
      await database.drop();
    }
  });
});
