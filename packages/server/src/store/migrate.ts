import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.js";

/** `packages/server/migrations`, from `src/store` and from `dist/store` alike. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

/** Any constant shared by every process of one deployment, so migrations never run twice at once. */
const MIGRATION_LOCK = 4_812_003;

function migrationNumber(file: string): number {
  return Number.parseInt(file, 10);
}

/** The `NNN_name.sql` files of a folder in numeric order. */
export async function listMigrations(dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+_.*\.sql$/.test(f));
  return files.sort((a, b) => migrationNumber(a) - migrationNumber(b) || a.localeCompare(b));
}

/** Apply every migration not applied yet, each in its own transaction, recording it. Returns the names applied. */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
  });
  const applied: string[] = [];
  for (const file of await listMigrations(dir)) {
    const sql = await readFile(join(dir, file), "utf8");
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const rows = await tx.query("SELECT 1 FROM schema_migrations WHERE name = $1", [file]);
      if (rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
