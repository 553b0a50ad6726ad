/**
 * Claims nobody joined (issue 60): a chat claimed for an advisor ('accepting', by an accept or a
 * transfer) whose participant never joined, because the process taking it died or failed and
 * could not undo it, would be neither held nor queued, and count against the advisor's limit.
 * Every CLAIM_SWEEP_MS each process puts the claims older than CLAIM_STALE_MS back in their
 * queue; consoles hear of it.
 */
import { isoAt, type Clock } from "../clock.js";
import type { Db } from "../store/db.js";
import { startSweeper } from "../sweeper.js";
import { releaseStaleClaims } from "./queue-repo.js";

/** A claim takes one participant's joining: one this old has been given up. */
export const CLAIM_STALE_MS = 60_000;
export const CLAIM_SWEEP_MS = 15_000;

export interface ClaimSweepOptions {
  db: Db;
  clock: Clock;
  /** The chat is waiting again (AgentService.released). */
  released: (contactId: string, advisorId: string | null) => Promise<void>;
  onError: (error: unknown) => void;
}

/** One sweep: how many claims went back to their queue. */
export async function sweepStaleClaims(o: Omit<ClaimSweepOptions, "onError">): Promise<number> {
  const before = isoAt(o.clock.now() - CLAIM_STALE_MS);
  const released = await releaseStaleClaims(o.db, before);
  for (const { contactId, advisorId } of released) await o.released(contactId, advisorId);
  return released.length;
}

/** Starts the sweep; the function returned stops it. */
export function startClaimSweeper(o: ClaimSweepOptions): () => Promise<void> {
  return startSweeper(CLAIM_SWEEP_MS, () => sweepStaleClaims(o), o.onError);
}
