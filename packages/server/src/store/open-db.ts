import type { Db } from "./db.js";
import { migrate } from "./migrate.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";

export interface OpenDbOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite store is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL's named prepared statements (see openPostgres), default on. */
  preparedStatements?: boolean;
  /** PGlite data directory, or "memory". */
  dataDir: string;
  /** Where the embedded store reports a failed vacuum (see store/pglite-vacuum.ts). */
  onVacuumError?: (err: unknown) => void;
}

/** Open the configured engine and bring its schema up to date. */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, { prepared: options.preparedStatements ?? true })
    : await openPglite(options.dataDir, { onVacuumError: options.onVacuumError });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
