import { randomBytes } from "node:crypto";
import pg from "pg";

export type Engine = "pglite" | "postgres";
export const ENGINES: Engine[] = ["pglite", "postgres"];

/** The PostgreSQL the tests use (database `test`, trust auth). */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  /** DATABASE_URL for the server ("" = PGlite in memory). */
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A fresh, isolated store: a new schema in the test database, or nothing for PGlite. */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === "pglite") return { databaseUrl: "", drop: async () => {} };
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    databaseUrl: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
