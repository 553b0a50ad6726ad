// The optional services the server can use (PostgreSQL at 127.0.0.1:5432 database `test`,
// Redis at 127.0.0.1:6379): whether they answer, and a throw-away PostgreSQL schema.
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import pg from "pg";

export const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const PROBE_TIMEOUT_MS = 2000;

async function withClient(work) {
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema in the PostgreSQL database: its DATABASE_URL (search_path set to it) and
 * `drop()`; null (with the reason) when PostgreSQL does not answer.
 */
export async function postgresSchema() {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  try {
    await withClient((c) => c.query(`CREATE SCHEMA ${schema}`));
  } catch (error) {
    return { unavailable: `${POSTGRES_URL}: ${error.message}` };
  }
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    databaseUrl: url.toString(),
    drop: () => withClient((c) => c.query(`DROP SCHEMA ${schema} CASCADE`)),
  };
}

/** Resolves to null when Redis answers PING, else to the reason it does not. */
export function redisUnavailable() {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(`${REDIS_URL}: no answer`));
    socket.once("error", (error) => done(`${REDIS_URL}: ${error.message}`));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) =>
      done(data.toString().startsWith("+PONG") ? null : `${REDIS_URL}: ${data}`),
    );
  });
}

/**
 * Transactions committed so far in PostgreSQL's database (each statement outside a transaction
 * is one); its statistics reach the view within about a second.
 */
export const postgresCommits = () =>
  withClient((c) =>
    c.query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"),
  ).then((r) => Number(r.rows[0].xact_commit));
