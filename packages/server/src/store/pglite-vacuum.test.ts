import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrate } from "./migrate.js";
import { openPglite } from "./pglite.js";
import { Vacuum } from "./pglite-vacuum.js";

describe("the embedded store's vacuum", () => {
  let pg: PGlite;

  beforeAll(async () => {
    pg = await PGlite.create("memory://");
  });
  beforeEach(async () => {
    await pg.exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public;
      CREATE TABLE kept (id text PRIMARY KEY, at int NOT NULL, doc jsonb NOT NULL);
      CREATE INDEX kept_at ON kept (at)`);
  });
  afterAll(async () => {
    await pg.close();
  });

  /** Round `round` of a swept table: 2,000 rows in, the previous round's deleted; its size. */
  async function churn(round: number): Promise<number> {
    await pg.query(
      `INSERT INTO kept SELECT gen_random_uuid()::text, $1, jsonb_build_object('Id', i)
       FROM generate_series(1, 2000) i`,
      [round],
    );
    await pg.query("DELETE FROM kept WHERE at < $1", [round]);
    const { rows } = await pg.query<{ bytes: number }>(
      "SELECT pg_total_relation_size('kept')::int AS bytes",
    );
    return rows[0]!.bytes;
  }

  it("keeps a table that sheds what it gains near its live size, where without it it grows by all it ever held", async () => {
    const vacuum = new Vacuum(pg);
    const without: number[] = [];
    for (let round = 0; round < 15; round++) without.push(await churn(round));
    await pg.exec("TRUNCATE kept");
    const vacuumed: number[] = [];
    for (let round = 0; round < 15; round++) {
      vacuumed.push(await churn(round));
      await vacuum.next();
    }
    // 2,000 rows live throughout; 30,000 came and went.
    expect(without.at(-1)!).toBeGreaterThan(8 * without[0]!);
    expect(vacuumed.at(-1)!).toBeLessThan(3 * vacuumed[0]!);
  });

  it("takes the tables in turn by name, and one created since in its place", async () => {
    await pg.exec('CREATE TABLE a_first (id int); CREATE TABLE "Quoted name" (id int)');
    const vacuum = new Vacuum(pg);
    const order = [];
    for (let i = 0; i < 4; i++) order.push(await vacuum.next());
    expect(order).toEqual(['"Quoted name"', "a_first", "kept", '"Quoted name"']);
    await pg.exec("CREATE TABLE b_second (id int)");
    expect(await vacuum.next()).toBe("a_first");
    expect(await vacuum.next()).toBe("b_second");
    await pg.exec("DROP TABLE kept");
    expect(await vacuum.next()).toBe('"Quoted name"');
  });

  it("answers null for a store without tables", async () => {
    await pg.exec("DROP TABLE kept");
    expect(await new Vacuum(pg).next()).toBeNull();
  });

  it("takes a table whose name needs quoting, after one whose name holds a quote", async () => {
    await pg.exec(`CREATE TABLE "it's" (id int); CREATE TABLE "it's too" (id int)`);
    const vacuum = new Vacuum(pg);
    expect(await vacuum.next()).toBe(`"it's"`);
    expect(await vacuum.next()).toBe(`"it's too"`);
    expect(await vacuum.next()).toBe("kept");
  });

  it("waits for a transaction under way (VACUUM cannot run inside one)", async () => {
    let run: Promise<string | null> | undefined;
    await pg.transaction(async (tx) => {
      await tx.query("INSERT INTO kept VALUES ('a', 1, '{}')");
      run = new Vacuum(pg).next();
      await tx.query("DELETE FROM kept WHERE id = 'a'");
    });
    await expect(run).resolves.toBe("kept");
  });
});

describe("the store opened on PGlite", () => {
  it("vacuums every table on its own, one at a time, and stops when closed", async () => {
    const errors: unknown[] = [];
    const db = await openPglite("memory", {
      vacuumEveryMs: 20,
      onVacuumError: (err) => errors.push(err),
    });
    await migrate(db);
    // A table never vacuumed (nor analyzed) has no row count yet: reltuples -1.
    const unvacuumed = async (on = db) =>
      (
        await on.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_class
           WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples < 0`,
        )
      )[0]!.n;
    // No vacuum runs while a transaction holds the engine: the table made in one is unvacuumed.
    await db.transaction(async (tx) => {
      await tx.query("CREATE TABLE made_late (id int)");
      expect(await unvacuumed(tx)).toBeGreaterThan(0);
    });
    const until = Date.now() + 60_000;
    while ((await unvacuumed()) > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await unvacuumed()).toBe(0);
    await db.close();
    expect(errors).toEqual([]);
  });
});
