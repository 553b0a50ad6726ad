/**
 * Uploads started and never completed expire (attachments.expires_at): from then on they no
 * longer count against the contact's quota, cannot be uploaded to or completed (checked where
 * they are used). This sweep reclaims their storage: marks them expired and deletes their chunks.
 * Every process sweeps now and then; two sweeping at once expire each row once.
 */
import { isoAt, type Clock } from "../clock.js";
import type { Db } from "../store/db.js";
import { startSweeper } from "../sweeper.js";

/** How often a process looks for expired uploads: storage is reclaimed at most this late. */
export const ATTACHMENT_SWEEP_MS = 60_000;
const BATCH = 100;

/**
 * Expire every not-completed upload whose expires_at passed `graceMs` ago; returns how many.
 * The grace (the server's request timeout) lets an upload that started in time finish: no PUT
 * still under way can be writing the chunks deleted here.
 */
export async function expireStaleUploads(db: Db, clock: Clock, graceMs: number): Promise<number> {
  const cutoff = isoAt(clock.now() - graceMs);
  let expired = 0;
  for (;;) {
    // One statement: the rows and their chunks go together, whatever happens to the process.
    const [row] = await db.query<{ n: unknown }>(
      `WITH expired AS (
         UPDATE attachments SET status = 'expired', upload_id = NULL
         WHERE attachment_id IN (
           SELECT attachment_id FROM attachments
           WHERE status IN ('pending', 'uploaded') AND expires_at <= $1 LIMIT $2)
           AND status IN ('pending', 'uploaded')
         RETURNING attachment_id),
       chunks AS (
         DELETE FROM attachment_chunks WHERE attachment_id IN (SELECT attachment_id FROM expired))
       SELECT count(*) AS n FROM expired`,
      [cutoff, BATCH],
    );
    const n = Number(row?.n ?? 0);
    expired += n;
    if (n < BATCH) return expired;
  }
}

/** Sweep every ATTACHMENT_SWEEP_MS until the returned stop is called (which waits for a sweep under way). */
export function startUploadExpirySweeper(
  db: Db,
  clock: Clock,
  graceMs: number,
  onError: (err: unknown) => void,
): () => Promise<void> {
  return startSweeper(ATTACHMENT_SWEEP_MS, () => expireStaleUploads(db, clock, graceMs), onError);
}
