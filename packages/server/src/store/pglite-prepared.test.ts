import { protocol } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "./db.js";
import { findRecordedItems } from "../contact-centre/idempotency-repo.js";
import { migrate } from "./migrate.js";
import { BINARY_FROM, REPLAN_MS } from "./pglite-prepared.js";
import { MAX_PREPARED } from "./prepared.js";
import { openPglite } from "./pglite.js";

describe("PGlite's prepared statements", () => {
  let db: Db;

  beforeEach(async () => {
    db = await openPglite("memory");
    await db.exec(
      `CREATE TABLE things (id text PRIMARY KEY, n int, tags text[], doc jsonb, at timestamptz)`,
    );
  });
  afterEach(async () => {
    await db.close();
  });

  const insert = (id: string, n: number | null, tags: string[], doc: unknown, at: Date) =>
    db.query("INSERT INTO things (id, n, tags, doc, at) VALUES ($1, $2, $3, $4, $5)", [
      id,
      n,
      tags,
      doc,
      at,
    ]);

  it("serializes each parameter for its type and parses each column, run after run", async () => {
    const at = new Date("2026-11-27T10:00:00.000Z");
    await insert("a", 1, ["x", "y,z"], { text: 'it\'s "quoted"' }, at);
    await insert("b", null, [], [1, 2], at);
    const select = "SELECT id, n, tags, doc, at FROM things WHERE id = ANY($1::text[]) ORDER BY id";
    for (let run = 0; run < 8; run++) {
      // PostgreSQL switches a prepared statement to a generic plan after five runs.
      expect(await db.query(select, [["a", "b"]])).toEqual([
        { id: "a", n: 1, tags: ["x", "y,z"], doc: { text: 'it\'s "quoted"' }, at },
        { id: "b", n: null, tags: [], doc: [1, 2], at },
      ]);
    }
    expect(await db.query(select, [["c"]])).toEqual([]);
  });

  it("sends long json and jsonb parameters in binary, with the same results as text", async () => {
    const bind = vi.spyOn(protocol.serialize, "bind");
    try {
      const long = (n: number) => `"quoted" \\ é 😀 ${"x".repeat(n)}`;
      const doc = { text: long(BINARY_FROM), nested: [long(3)] };
      const at = new Date("2026-11-28T10:00:00.000Z");
      await insert(long(BINARY_FROM), 1, [long(BINARY_FROM)], doc, at);
      const sent = bind.mock.calls.at(-1)![0]!.values!;
      // The doc (jsonb) went in binary; the id, the array and the time as text.
      expect(sent.map((v) => (v instanceof Uint8Array ? "binary" : typeof v))).toEqual([
        "string",
        "string",
        "string",
        "binary",
        "string",
      ]);
      for (const cast of ["text", "varchar", "json", "jsonb"]) {
        const value = cast.startsWith("json") ? JSON.stringify(doc) : long(BINARY_FROM);
        const [row] = await db.query<{ v: unknown }>(`SELECT $1::${cast} AS v`, [value]);
        expect(row!.v, cast).toEqual(cast.startsWith("json") ? doc : value);
      }
      expect(
        await db.query("SELECT id, doc FROM things WHERE id = $1 AND doc = $2", [
          long(BINARY_FROM),
          doc,
        ]),
      ).toEqual([{ id: long(BINARY_FROM), doc }]);
      // What PostgreSQL refuses as text it refuses in binary, with the same code.
      for (const [cast, bad, code] of [
        ["json", `{${long(BINARY_FROM)}`, "22P02"],
        ["jsonb", `{${long(BINARY_FROM)}`, "22P02"],
      ] as const) {
        await expect(db.query(`SELECT $1::${cast}`, [bad]), cast).rejects.toMatchObject({ code });
        await expect(db.query(`SELECT $1::${cast}`, [bad.slice(-10)]), cast).rejects.toMatchObject({
          code,
        });
      }
    } finally {
      bind.mockRestore();
    }
  });

  it("surfaces a statement's error with its code and goes on working", async () => {
    const at = new Date();
    await insert("a", 1, [], {}, at);
    await expect(insert("a", 2, [], {}, at)).rejects.toMatchObject({ code: "23505" });
    await expect(db.query("SELECT nothing FROM things")).rejects.toMatchObject({ code: "42703" });
    await insert("b", 2, [], {}, at);
    expect(await db.query("SELECT id FROM things ORDER BY id")).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("runs inside a transaction, which rolls back what it prepared and wrote", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO things (id) VALUES ($1)", ["in-tx"]);
        expect(await tx.query("SELECT id FROM things")).toEqual([{ id: "in-tx" }]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await db.query("SELECT id FROM things")).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO things (id) VALUES ($1)", ["kept"]);
    });
    expect(await db.query("SELECT id FROM things")).toEqual([{ id: "kept" }]);
  });

  it("refuses a statement on a transaction's handle once it committed", async () => {
    let kept: Db | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
      await tx.query("INSERT INTO things (id) VALUES ($1)", ["committed"]);
    });
    await expect(kept!.query("INSERT INTO things (id) VALUES ($1)", ["late"])).rejects.toThrow(
      "Transaction is closed",
    );
    expect(await db.query("SELECT id FROM things")).toEqual([{ id: "committed" }]);
  });

  it("keeps queries outside a transaction from running inside one in progress", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (t) => {
      await t.query("INSERT INTO things (id) VALUES ($1)", ["pending"]);
      await held;
    });
    const outside = db.query<{ count: number }>("SELECT count(*)::int AS count FROM things");
    release();
    await tx;
    // Run after the commit, the outside query sees the row; had it run inside, it would too,
    // so the rollback case proves the order.
    expect(await outside).toEqual([{ count: 1 }]);
    let undo!: () => void;
    const undone = new Promise<void>((resolve) => (undo = resolve));
    const failing = db.transaction(async (t) => {
      await t.query("INSERT INTO things (id) VALUES ($1)", ["rolled-back"]);
      await undone;
      throw new Error("undo");
    });
    const after = db.query<{ id: string }>("SELECT id FROM things ORDER BY id");
    undo();
    await expect(failing).rejects.toThrow("undo");
    expect(await after).toEqual([{ id: "pending" }]);
  });

  it("sees a table's new shape after a schema change", async () => {
    await insert("a", 1, [], {}, new Date());
    const all = "SELECT * FROM things WHERE id = $1";
    expect(Object.keys((await db.query(all, ["a"]))[0]!)).toEqual(["id", "n", "tags", "doc", "at"]);
    await db.exec("ALTER TABLE things ADD COLUMN extra text DEFAULT 'new'");
    expect((await db.query(all, ["a"]))[0]).toMatchObject({ id: "a", extra: "new" });
  });

  it("re-prepares a statement whose plan went stale without `exec`", async () => {
    await insert("a", 1, [], {}, new Date());
    const all = "SELECT * FROM things WHERE id = $1";
    await db.query(all, ["a"]);
    await db.query("ALTER TABLE things ADD COLUMN later int DEFAULT 7");
    expect((await db.query(all, ["a"]))[0]).toMatchObject({ id: "a", later: 7 });
  });

  it("runs texts beyond the bound unnamed, with the same results", async () => {
    await insert("a", 41, [], {}, new Date());
    for (let i = 0; i <= MAX_PREPARED + 5; i++) {
      const [row] = await db.query<{ v: number }>(
        `SELECT n + ${i} AS v FROM things WHERE id = $1`,
        ["a"],
      );
      expect(row).toEqual({ v: 41 + i });
    }
    expect(await db.query("SELECT n FROM things WHERE id = $1", ["a"])).toEqual([{ n: 41 }]);
  });
});

describe("PGlite's prepared plans as the store grows", () => {
  it("are made again once REPLAN_MS old: the ClientToken lookup planned on an empty store uses the index once it grew", async () => {
    let now = 0;
    const db = await openPglite("memory", { now: () => now });
    try {
      await migrate(db);
      const keys = ["k1", "k2"].map((clientToken) => ({
        participantId: "p",
        operation: "SendMessage",
        clientToken,
        requestHash: "h",
      }));
      const at = "2026-11-28T10:00:00.000Z";
      const plan = async () => {
        const [statement] = await db.query<{ name: string }>(
          // Not this query itself, which is prepared too and holds the same words.
          `SELECT name FROM pg_prepared_statements
           WHERE statement LIKE '%JOIN idempotency i%' AND statement NOT LIKE '%pg_prepared%'`,
        );
        const rows = await db.query<{ "QUERY PLAN": string }>(
          `EXPLAIN EXECUTE ${statement!.name}('{p,p}', '{SendMessage,SendMessage}', '{k1,k2}', '{h,h}', '${at}')`,
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      };
      // Past PostgreSQL's five custom plans, on the empty store: its generic plan.
      for (let run = 0; run < 8; run++)
        expect(await findRecordedItems(db, keys, at)).toEqual(new Map());
      await db.query(
        `INSERT INTO idempotency
         SELECT 'p', 'SendMessage', 't' || n, 'h', jsonb_build_object('Id', 'i' || n), $1::timestamptz
         FROM generate_series(1, 50000) AS n`,
        [at],
      );
      now += REPLAN_MS - 1;
      await findRecordedItems(db, keys, at);
      expect(await plan()).toMatch(/Seq Scan on idempotency/);

      now += 1;
      for (let run = 0; run < 8; run++) await findRecordedItems(db, keys, at);
      const again = await plan();
      expect(again).toMatch(/Index Scan using idempotency_pkey/);
      expect(again).not.toMatch(/Seq Scan/);
    } finally {
      await db.close();
    }
  });
});
