import { mkdir } from "node:fs/promises";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { Db } from "./db.js";
import { startSweeper } from "../sweeper.js";
import { createInMemory } from "./pglite-memory.js";
import { PreparedStatements } from "./pglite-prepared.js";
import { Vacuum, VACUUM_EVERY_MS } from "./pglite-vacuum.js";

type Queryable = Pick<PGlite, "exec"> | Transaction;

function wrap(
  target: Queryable,
  prepared: PreparedStatements,
  transaction: Db["transaction"],
  close: Db["close"],
): Db {
  const inTransaction = target !== prepared.engine;
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      // As PGlite's own: a transaction's handle refuses work once it committed or rolled back
      // (run then, the statement would slip in beside whatever holds the engine next).
      if ("closed" in target && target.closed) throw new Error("Transaction is closed");
      return prepared.query<T>(sql, params, inTransaction);
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
      await prepared.reset(target);
    },
    transaction,
    close,
  };
}

/**
 * PostgreSQL's buffer pool lives in PGlite's WebAssembly memory, which never shrinks: with the
 * default shared_buffers (128MB, written by initdb) writing attachments fills all of it, and it
 * stays resident for the life of the process. 16MB keeps the engine's own memory near 30 MB; the
 * data files are still cached by the operating system. Applied at every start (not written into
 * postgresql.conf), so existing stores get it too.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  "-c",
  "shared_buffers=16MB",
  // A new 16 MB WAL segment is created, not zero-filled: the engine runs on the event loop, and
  // writing its zeros stopped it 40–50 ms every few seconds at 2,000 msgs/s (each record carries
  // its own checksum, so a segment's stale bytes are never taken for records).
  "-c",
  "wal_init_zero=off",
];

export interface PgliteOptions {
  /** The clock that ages prepared plans (tests give their own). */
  now?: () => number;
  /** Where a failed vacuum is reported (none by default: the next runs as planned; see Vacuum). */
  onVacuumError?: (err: unknown) => void;
  /** How often the next table is vacuumed (tests shorten it). */
  vacuumEveryMs?: number;
}

/**
 * The embedded engine: PostgreSQL compiled to WebAssembly, in this process.
 * `dataDir` is a directory on disk, or "memory" for a throw-away store (tests).
 */
export async function openPglite(
  dataDir: string,
  { now, onVacuumError = () => {}, vacuumEveryMs = VACUUM_EVERY_MS }: PgliteOptions = {},
): Promise<Db> {
  if (dataDir !== "memory") await mkdir(dataDir, { recursive: true });
  const pg =
    dataDir === "memory"
      ? await createInMemory({ startParams: START_PARAMS })
      : await PGlite.create(dataDir, { startParams: START_PARAMS });
  const vacuum = new Vacuum(pg);
  const stopVacuum = startSweeper(vacuumEveryMs, () => vacuum.next(), onVacuumError);
  const close = async (): Promise<void> => {
    await stopVacuum();
    if (!pg.closed) await pg.close();
  };
  const prepared = new PreparedStatements(pg, now);
  const root: Db = wrap(
    pg,
    prepared,
    (fn) =>
      pg.transaction(async (tx) => {
        // Nested transactions run inside the outer one.
        const inner: Db = wrap(tx, prepared, (nested) => nested(inner), close);
        return fn(inner);
      }),
    close,
  );
  return { ...root, embedded: true };
}
