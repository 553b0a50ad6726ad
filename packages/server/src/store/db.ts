/**
 * The one storage interface. Two engines implement it with the same SQL (migrations/*.sql):
 * PGlite (embedded default; on disk under DATA_DIR, in memory for tests) and PostgreSQL (DATABASE_URL).
 * Repositories are written on top of it; nothing else talks to an engine.
 */
export interface Db {
  /** Run one statement with `$1, $2, …` parameters and return its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Run `fn` in one transaction: committed when it resolves, rolled back when it throws. On
   * PostgreSQL `fn` may be run a second time (a prepared plan made stale by another process's
   * migration aborts the first), so it acts on `tx` only.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Run a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * True when the engine runs in this process, on its event loop (PGlite): its statements take
   * this process's core, and it runs one transaction at a time.
   */
  readonly embedded?: boolean;
}
