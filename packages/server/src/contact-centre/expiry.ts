/**
 * Chats end when their time runs out (StartChatContact's ChatDurationInMinutes: 60 minutes to
 * 7 days, default 25 hours). Every process sweeps now and then; ending is idempotent, so two
 * processes ending the same contact end it once. The same sweep deletes the ClientToken records
 * older than their window.
 */
import { isoAt, type Clock } from "../clock.js";
import type { Db } from "../store/db.js";
import { startSweeper } from "../sweeper.js";
import { findExpiredContacts } from "./contacts-repo.js";
import { sweepIdempotency } from "./idempotency-repo.js";
import type { ContactCentre } from "./types.js";

export const DEFAULT_CHAT_DURATION_MINUTES = 25 * 60;
export const MIN_CHAT_DURATION_MINUTES = 60;
export const MAX_CHAT_DURATION_MINUTES = 7 * 24 * 60;
/** How often a process looks for chats that ran out: a chat ends at most this late. */
export const EXPIRY_SWEEP_MS = 30_000;
const BATCH = 100;

/** End every active chat whose time ran out by now; returns how many it ended. */
export async function endExpiredChats(
  db: Db,
  centre: ContactCentre,
  clock: Clock,
): Promise<number> {
  let ended = 0;
  for (;;) {
    const ids = await findExpiredContacts(db, isoAt(clock.now()), BATCH);
    for (const id of ids) await centre.endContact(id);
    ended += ids.length;
    if (ids.length < BATCH) return ended;
  }
}

/** Sweep every EXPIRY_SWEEP_MS until the returned stop is called (which waits for a sweep under way). */
export function startExpirySweeper(
  db: Db,
  centre: ContactCentre,
  clock: Clock,
  onError: (err: unknown) => void,
): () => Promise<void> {
  return startSweeper(
    EXPIRY_SWEEP_MS,
    async () => {
      await endExpiredChats(db, centre, clock);
      await sweepIdempotency(db, isoAt(clock.now()));
    },
    onError,
  );
}
