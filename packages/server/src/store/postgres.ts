import pg from "pg";
import type { Db } from "./db.js";

type Client = pg.Pool | pg.PoolClient;

function wrap(client: Client, transaction: Db["transaction"], close: Db["close"]): Db {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
    transaction,
    close,
  };
}

/** PostgreSQL through a `pg` pool (DATABASE_URL). */
export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await pool.end();
  };
  const transaction: Db["transaction"] = async (fn) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const inner: Db = wrap(client, (nested) => nested(inner), close);
      const result = await fn(inner);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  // Fail early when the database is unreachable.
  await pool.query("SELECT 1");
  return wrap(pool, transaction, close);
}
