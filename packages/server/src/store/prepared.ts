/** What both stores' prepared statements share (pglite-prepared.ts, postgres-prepared.ts). */

/**
 * At most this many statements stay prepared; a text beyond them is parsed again at each run, as
 * PostgreSQL's unnamed statement. Our statements are a few hundred fixed texts; the bound only
 * guards against SQL built from data.
 */
export const MAX_PREPARED = 1000;

/** PostgreSQL's feature_not_supported, raised for a prepared plan whose result type changed. */
const STALE_PLAN = "0A000";

/**
 * "cached plan must not change result type": a table under a prepared `SELECT *` changed shape
 * (a migration since); prepared again, the statement sees the new shape.
 */
export const isStalePlan = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === STALE_PLAN;
