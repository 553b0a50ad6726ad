/**
 * The team's history in the store (issue 60): which advisors took part in each chat, and one
 * `conversations` row per ended chat, built once it has ended — by the process that ended it,
 * and by a catch-up for any a crash or an older version left out — never on the message path.
 */
import {
  ContentType,
  EMAIL_ATTRIBUTE,
  FIRST_LINE_MAX,
  HISTORY_PAGE_SIZE,
  type HistoryConversation,
} from "@chat-widget/protocol";
import { toIso } from "../contact-centre/rows.js";
import type { Db } from "../store/db.js";
import { firstLineSql } from "./earlier-repo.js";

/** An advisor joined the chat (once per advisor and chat). */
export async function recordAdvisor(
  db: Db,
  contactId: string,
  advisorId: string,
  name: string,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO contact_advisors (contact_id, advisor_id, advisor_name, joined_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT (contact_id, advisor_id) DO NOTHING`,
    [contactId, advisorId, name, at],
  );
}

/** The history row of each ended contact `which` selects ($1.. after the fixed four). */
const buildSql = (which: string) =>
  `INSERT INTO conversations
     (contact_id, started_at, ended_at, customer_name, customer_email, advisors, first_line)
   SELECT c.contact_id, c.created_at, COALESCE(c.ended_at, c.last_item_at, c.created_at),
     COALESCE(c.attributes ->> 'customerName',
       (SELECT p.display_name FROM participants p
        WHERE p.contact_id = c.contact_id AND p.role = 'CUSTOMER'
        ORDER BY p.created_at, p.participant_id LIMIT 1), ''),
     NULLIF(trim(c.attributes ->> $1), ''),
     COALESCE((SELECT jsonb_agg(jsonb_build_object('AdvisorId', a.advisor_id, 'Name', a.advisor_name)
                               ORDER BY a.joined_at, a.advisor_id)
               FROM contact_advisors a WHERE a.contact_id = c.contact_id), '[]'::jsonb),
     ${firstLineSql("c.contact_id", "$2", "$3", "$4")}
   FROM contacts c
   WHERE c.status = 'ended' AND ${which}
   ON CONFLICT (contact_id) DO NOTHING`;

const FIXED = [EMAIL_ATTRIBUTE, FIRST_LINE_MAX, ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN];

/** The chat ended: its history row (nothing when it has one, or has not ended). */
export async function buildConversation(db: Db, contactId: string): Promise<void> {
  await db.query(buildSql("c.contact_id = $5"), [...FIXED, contactId]);
}

/** Up to `limit` ended chats without a history row get one; how many did. */
export async function buildMissing(db: Db, limit: number): Promise<number> {
  const rows = await db.query(
    `${buildSql(`c.contact_id IN (
       SELECT e.contact_id FROM contacts e
       WHERE e.status = 'ended'
         AND NOT EXISTS (SELECT 1 FROM conversations v WHERE v.contact_id = e.contact_id)
       LIMIT $5)`)} RETURNING contact_id`,
    [...FIXED, limit],
  );
  return rows.length;
}

export interface HistoryFilter {
  from: string | null;
  to: string | null;
  advisorId: string | null;
  /** Already a LIKE pattern (escaped, with its % around). */
  visitorLike: string | null;
  /** The last row of the page before. */
  before: { endedAt: string; contactId: string } | null;
}

interface Row {
  contact_id: string;
  started_at: unknown;
  ended_at: unknown;
  customer_name: string;
  customer_email: string | null;
  advisors: unknown;
  first_line: string | null;
}

/** A page of the history, the last ended first (one more than a page, to tell there is a next). */
export async function listConversations(db: Db, f: HistoryFilter): Promise<HistoryConversation[]> {
  const rows = await db.query<Row>(
    `SELECT v.* FROM conversations v
     WHERE ($1::timestamptz IS NULL OR v.started_at >= $1::timestamptz)
       AND ($2::timestamptz IS NULL OR v.started_at < $2::timestamptz)
       AND ($3::text IS NULL OR EXISTS (
         SELECT 1 FROM contact_advisors a WHERE a.contact_id = v.contact_id AND a.advisor_id = $3))
       AND ($4::text IS NULL OR v.customer_name ILIKE $4 OR v.customer_email ILIKE $4)
       AND ($5::timestamptz IS NULL OR (v.ended_at, v.contact_id) < ($5::timestamptz, $6::text))
     ORDER BY v.ended_at DESC, v.contact_id DESC
     LIMIT $7`,
    [
      f.from,
      f.to,
      f.advisorId,
      f.visitorLike,
      f.before?.endedAt ?? null,
      f.before?.contactId ?? null,
      HISTORY_PAGE_SIZE + 1,
    ],
  );
  return rows.map((r) => ({
    ContactId: r.contact_id,
    StartedAt: toIso(r.started_at),
    EndedAt: toIso(r.ended_at),
    CustomerName: r.customer_name,
    ...(r.customer_email ? { CustomerEmail: r.customer_email } : {}),
    Advisors: Array.isArray(r.advisors) ? (r.advisors as HistoryConversation["Advisors"]) : [],
    ...(r.first_line ? { FirstLine: r.first_line } : {}),
  }));
}

/** Every advisor who took part in a chat, under the name they last answered with, by name. */
export async function historyAdvisors(db: Db): Promise<{ AdvisorId: string; Name: string }[]> {
  const rows = await db.query<{ advisor_id: string; advisor_name: string }>(
    `SELECT advisor_id, advisor_name FROM (
       SELECT DISTINCT ON (advisor_id) advisor_id, advisor_name FROM contact_advisors
       ORDER BY advisor_id, joined_at DESC) last
     ORDER BY advisor_name, advisor_id`,
  );
  return rows.map((r) => ({ AdvisorId: r.advisor_id, Name: r.advisor_name }));
}
