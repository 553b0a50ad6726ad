import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { openPglite } from "./pglite.js";

// The embedded engine's settings, applied at every start (not written into postgresql.conf).
describe("the embedded store on disk", () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pglite-settings-"));
    db = await openPglite(dir);
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const setting = async (name: string) =>
    (
      await db.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = $1", [name])
    )[0]?.setting;

  it("keeps a small buffer pool and creates WAL segments without zero-filling them", async () => {
    // 2,048 pages of 8 kB.
    expect(await setting("shared_buffers")).toBe("2048");
    expect(await setting("wal_init_zero")).toBe("off");
  });

  it("still writes what it commits to its WAL, and reads it back after a restart", async () => {
    await db.exec("CREATE TABLE kept (n int PRIMARY KEY)");
    await db.query("INSERT INTO kept SELECT generate_series(1, 1000)");
    expect((await readdir(join(dir, "pg_wal"))).some((f) => /^[0-9A-F]{24}$/.test(f))).toBe(true);
    await db.close();
    db = await openPglite(dir);
    expect(await db.query("SELECT count(*)::int AS n FROM kept")).toEqual([{ n: 1000 }]);
  });
});
