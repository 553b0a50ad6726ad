/**
 * The store's side of a transfer (issue 60): who may take a chat now, and the hand-over of a
 * held chat to another advisor in one conditional update, so a chat is handed on once and
 * only by the advisor holding it.
 */
import { MAX_CONCURRENT_CHATS, type TransferTarget } from "@chat-widget/protocol";
import { updateLocked } from "../agents/queue-repo.js";
import type { Db } from "../store/db.js";

interface TargetRow {
  advisor_id: string;
  display_name: string;
  username: string;
  max_chats: number;
  chats: number;
}

/** Advisors signed in, available and enabled, but `except`; least loaded first, then by name. */
export async function listTargets(
  db: Db,
  except: string,
  nowIso: string,
): Promise<TransferTarget[]> {
  const rows = await db.query<TargetRow>(
    `SELECT a.advisor_id, a.display_name, a.username, a.max_chats,
       (SELECT count(*) FROM agent_contacts c
        WHERE c.advisor_id = a.advisor_id AND c.status IN ('accepting', 'active'))::int AS chats
     FROM advisors a
     WHERE a.availability = 'Available' AND NOT a.disabled AND a.advisor_id <> $1
       AND EXISTS (SELECT 1 FROM advisor_sessions s
                   WHERE s.advisor_id = a.advisor_id AND s.expires_at > $2)
     ORDER BY chats, a.display_name, a.advisor_id`,
    [except, nowIso],
  );
  return rows.map((r) => ({
    AdvisorId: r.advisor_id,
    Name: r.display_name,
    Username: r.username,
    Chats: Number(r.chats),
    MaxChats: Math.min(Number(r.max_chats), MAX_CONCURRENT_CHATS),
  }));
}

/**
 * The chat `from` holds is claimed for `to` (status 'accepting', no participant yet): returns
 * the handing advisor's participant, or null when `from` does not hold it (any more).
 */
export async function handOver(
  tx: Db,
  contactId: string,
  from: string,
  to: string,
  at: string,
): Promise<string | null> {
  const [row] = await updateLocked(
    tx,
    "status = 'accepting', advisor_id = $3, participant_id = NULL, accepted_at = $4",
    "contact_id = $1 AND status = 'active' AND advisor_id = $2 AND participant_id IS NOT NULL",
    [contactId, from, to, at],
  );
  return row?.participant_id ?? null;
}
