import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrate, MIGRATIONS_DIR } from "./migrate.js";
import { openPostgres } from "./postgres.js";

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describe("migrations", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it("lists NNN_*.sql files in numeric order, our 001–099 first", async () => {
    const files = await listMigrations(MIGRATIONS_DIR);
    expect(files[0]).toBe("001_contacts.sql");
    const numbers = files.map((f) => Number.parseInt(f, 10));
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  });

  it("applies each migration once, in numeric order (2 before 10), and records it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "migrations-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, "10_second.sql"), "INSERT INTO log VALUES ('ten');");
    await writeFile(
      join(dir, "2_first.sql"),
      "CREATE TABLE log (v text); INSERT INTO log VALUES ('two');",
    );
    await writeFile(join(dir, "README.md"), "not a migration");
    const schema = `m_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    cleanup.push(async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    });
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const db = await openPostgres(url.toString());
    try {
      expect(await migrate(db, dir)).toEqual(["2_first.sql", "10_second.sql"]);
      expect(await migrate(db, dir)).toEqual([]);
      expect((await db.query<{ v: string }>("SELECT v FROM log")).map((r) => r.v)).toEqual([
        "two",
        "ten",
      ]);
    } finally {
      await db.close();
    }
  });
});
