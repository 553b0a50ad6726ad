/**
 * The store's side of revoking advisors (issue 57): an advisor disabled, reset or signed out
 * where no process heard it (the advisors CLI writes only the store), or whose sign-in ran out,
 * still holds chats or, in this process, an advisor websocket or events stream. Every
 * REVOCATION_SWEEP_MS each process finds such advisors and revokes them (AgentService.revoke:
 * streams closed everywhere, chats back in the queue). The admin API revokes at once; this
 * catches what it did not see.
 */
import { isoAt, type Clock } from "../clock.js";
import type { Db } from "../store/db.js";
import { startSweeper } from "../sweeper.js";

/** How often each process looks for advisors who hold something and are no longer signed in. */
export const REVOCATION_SWEEP_MS = 2_000;

/** Of the advisors who hold chats, and of `connected` (this process's), those not signed in. */
export async function advisorsToRevoke(
  db: Db,
  connected: readonly string[],
  nowIso: string,
): Promise<string[]> {
  const rows = await db.query<{ advisor_id: string }>(
    `WITH holders AS (
       SELECT advisor_id FROM agent_contacts
       WHERE status IN ('accepting', 'active') AND advisor_id IS NOT NULL
       UNION SELECT unnest($2::text[])
     )
     SELECT DISTINCT h.advisor_id FROM holders h
     WHERE NOT EXISTS (
       SELECT 1 FROM advisor_sessions s JOIN advisors a ON a.advisor_id = s.advisor_id
       WHERE s.advisor_id = h.advisor_id AND s.expires_at > $1 AND NOT a.disabled
     )
     ORDER BY h.advisor_id`,
    [nowIso, [...connected]],
  );
  return rows.map((r) => r.advisor_id);
}

export interface RevocationSweepOptions {
  db: Db;
  clock: Clock;
  /** The advisors with a websocket or events stream open in this process. */
  connected: () => string[];
  revoke: (advisorId: string) => Promise<void>;
  onError: (error: unknown) => void;
  everyMs?: number;
}

/** Starts the sweep; the function returned stops it. */
export function startRevocationSweeper(o: RevocationSweepOptions): () => Promise<void> {
  return startSweeper(
    o.everyMs ?? REVOCATION_SWEEP_MS,
    async () => {
      const due = await advisorsToRevoke(o.db, o.connected(), isoAt(o.clock.now()));
      for (const advisorId of due) await o.revoke(advisorId);
    },
    o.onError,
  );
}
