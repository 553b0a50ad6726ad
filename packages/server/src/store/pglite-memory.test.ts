import { afterAll, describe, expect, it, vi } from "vitest";
import type { Db } from "./db.js";
import { openDb } from "./open-db.js";

// In-memory stores start from a copy of a fresh cluster (pglite-memory.ts): the run's, given to
// every test file (test/support/fresh-cluster.ts), or one the process makes at its second
// store. Each must still be a store of its own, as if initdb had just made it.
describe("in-memory stores opened one after another, from the run's copy", () => {
  const stores: Db[] = [];
  afterAll(async () => {
    for (const db of stores) await db.close();
  });

  const open = async (): Promise<Db> => {
    const db = await openDb({ dataDir: "memory" });
    stores.push(db);
    return db;
  };
  const count = async (db: Db, table: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;

  it("each holds only what was written to it, with the schema migrated and the engine's settings", async () => {
    const [first, second, third] = [await open(), await open(), await open()];
    await first.exec("CREATE TABLE only_here (n int)");
    await second.query("INSERT INTO schema_migrations (name) VALUES ('written-in-the-second')");

    for (const db of [second, third]) {
      await expect(db.query("SELECT 1 FROM only_here")).rejects.toThrow(/only_here/);
    }
    const names = async (db: Db) =>
      (await db.query<{ name: string }>("SELECT name FROM schema_migrations")).map((r) => r.name);
    expect(await names(second)).toContain("written-in-the-second");
    expect(await names(third)).not.toContain("written-in-the-second");
    expect((await names(third)).sort()).toEqual((await names(first)).sort());
    expect((await names(first)).length).toBeGreaterThan(10);
    for (const db of [first, second, third]) {
      expect(await count(db, "contacts")).toBe(0);
      const [buffers] = await db.query<{ setting: string }>(
        "SELECT setting FROM pg_settings WHERE name = 'shared_buffers'",
      );
      expect(buffers?.setting).toBe("2048");
    }
  });

  it("keeps the others working when one is closed, and opens more after", async () => {
    const [closed, kept] = [stores[1]!, stores[2]!];
    await closed.close();
    stores.splice(1, 1);
    const later = await open();
    await kept.exec("CREATE TABLE kept_rows (n int)");
    await kept.query("INSERT INTO kept_rows VALUES (1), (2)");
    expect(await count(kept, "kept_rows")).toBe(2);
    await expect(later.query("SELECT 1 FROM kept_rows")).rejects.toThrow(/kept_rows/);
  });
});

describe("in-memory stores of a process given no copy", () => {
  it("the process makes its own copy at the second store; each is still a store of its own", async () => {
    vi.resetModules();
    const { createInMemory } = await import("./pglite-memory.js");
    const engines = [await createInMemory({}), await createInMemory({}), await createInMemory({})];
    try {
      await engines[0]!.exec("CREATE TABLE first_only (n int)");
      await engines[1]!.exec(
        "CREATE TABLE second_only (n int); INSERT INTO second_only VALUES (2)",
      );
      const tables = async (i: number) =>
        (
          await engines[i]!.query<{ tablename: string }>(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
          )
        ).rows.map((r) => r.tablename);
      expect(await tables(0)).toEqual(["first_only"]);
      expect(await tables(1)).toEqual(["second_only"]);
      expect(await tables(2)).toEqual([]);
    } finally {
      for (const engine of engines) await engine.close();
    }
  });
});
