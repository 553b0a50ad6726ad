import pg from "pg";
import type { Db } from "./db.js";
import { PreparedNames } from "./postgres-prepared.js";
import { isStalePlan } from "./prepared.js";

type Client = pg.Pool | pg.PoolClient;

/**
 * With prepared statements, a pooled connection is replaced after this long, so that its plans
 * are made again for tables that grew (as PGlite's REPLAN_MS): PostgreSQL replans a prepared
 * statement when a table is analyzed, which an instance without autovacuum never does.
 */
export const CONNECTION_LIFETIME_S = 60;

export interface PostgresOptions {
  /**
   * Named prepared statements (see PreparedNames), default on; off behind a pooler in
   * transaction mode that cannot keep them (PgBouncer before 1.21).
   */
  prepared?: boolean;
}

function wrap(
  client: Client,
  names: PreparedNames | null,
  inTransaction: boolean,
  transaction: Db["transaction"],
  close: Db["close"],
): Db {
  const run = async (sql: string, params: unknown[]) =>
    names ? client.query(names.config(sql, params)) : client.query(sql, params);
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      try {
        return (await run(sql, params)).rows as T[];
      } catch (error) {
        if (!names || !isStalePlan(error)) throw error;
        names.forget(sql);
        // The error aborted the transaction: it is run again whole (see openPostgres).
        if (inTransaction) throw error;
        return (await run(sql, params)).rows as T[];
      }
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
    transaction,
    close,
  };
}

/** PostgreSQL through a `pg` pool (DATABASE_URL). */
export async function openPostgres(
  connectionString: string,
  { prepared = true }: PostgresOptions = {},
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...(prepared ? { maxLifetimeSeconds: CONNECTION_LIFETIME_S } : {}),
  });
  const names = prepared ? new PreparedNames() : null;
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await pool.end();
  };
  const once = async <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // While a client is checked out the pool does not hear its errors: a connection reset in a
    // transaction (a database fail-over) would be an unhandled 'error' that ends the process.
    // The transaction fails instead, and the dead client is dropped, not pooled again.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on("error", onLost);
    try {
      await client.query("BEGIN");
      const inner: Db = wrap(client, names, true, (nested) => nested(inner), close);
      const result = await fn(inner);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.off("error", onLost);
      client.release(lost);
    }
  };
  // A plan made stale by another process's migration aborted the transaction: run again, the
  // statement now prepared anew (see wrap).
  const transaction: Db["transaction"] = (fn) =>
    once(fn).catch((error: unknown) => {
      if (names && isStalePlan(error)) return once(fn);
      throw error;
    });
  // Fail early when the database is unreachable.
  await pool.query("SELECT 1");
  return wrap(pool, names, false, transaction, close);
}
