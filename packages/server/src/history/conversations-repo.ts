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
import { snippetSql } from "./search.js";

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
     (contact_id, started_at, ended_at, customer_name, customer_email, advisors, first_line, body)
   SELECT c.contact_id, c.created_at, COALESCE(c.ended_at, c.last_item_at, c.created_at),
     COALESCE(c.attributes ->> 'customerName',
       (SELECT p.display_name FROM participants p
        WHERE p.contact_id = c.contact_id AND p.role = 'CUSTOMER'
        ORDER BY p.created_at, p.participant_id LIMIT 1), ''),
     NULLIF(trim(c.attributes ->> $1), ''),
     COALESCE((SELECT jsonb_agg(jsonb_build_object('AdvisorId', a.advisor_id, 'Name', a.advisor_name)
                               ORDER BY a.joined_at, a.advisor_id)
               FROM contact_advisors a WHERE a.contact_id = c.contact_id), '[]'::jsonb),
     ${firstLineSql("c.contact_id", "$2", "$3", "$4")},
     left(concat_ws(E'\n',
       (SELECT string_agg(i.item ->> 'Content', E'\n' ORDER BY i.seq) FROM items i
        WHERE i.contact_id = c.contact_id AND i.item ->> 'Type' = 'MESSAGE'
          AND i.item ->> 'ContentType' IN ($3, $4)),
       (SELECT string_agg(n.body, E'\n' ORDER BY n.created_at, n.note_id) FROM contact_notes n
        WHERE n.contact_id = c.contact_id)), ${SEARCH_TEXT_MAX})
   FROM contacts c
   WHERE c.status = 'ended' AND ${which}
   ON CONFLICT (contact_id) DO NOTHING`;

/** The most characters of a conversation searched (its messages, then its notes). */
export const SEARCH_TEXT_MAX = 100_000;

const FIXED = [EMAIL_ATTRIBUTE, FIRST_LINE_MAX, ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN];

/** The chat ended: its history row (nothing when it has one, or has not ended). */
export async function buildConversation(db: Db, contactId: string): Promise<void> {
  await db.query(buildSql("c.contact_id = $5"), [...FIXED, contactId]);
}

/** The row built again (a wrap-up written since: its text is searched with the rest). */
export async function rebuildConversation(db: Db, contactId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("DELETE FROM conversations WHERE contact_id = $1", [contactId]);
    await buildConversation(tx, contactId);
  });
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
  /** A tag the conversation has (normal). */
  tag: string | null;
  /** Words to find in the messages and notes (web-search syntax: "a phrase", -not, or). */
  search: string | null;
  /** The words the search looks for, marked in the snippet (search.ts wordsToMark). */
  marked: string;
}

interface Row {
  contact_id: string;
  started_at: unknown;
  ended_at: unknown;
  customer_name: string;
  customer_email: string | null;
  advisors: unknown;
  first_line: string | null;
  snippet: string | null;
  tags: unknown;
}

/**
 * The page's query: only the filters asked for are in its text, so that each text's plan (the
 * stores keep statements prepared) can use its indexes, the search's GIN index above all.
 */
export function listQuery(f: HistoryFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const where: string[] = [];
  if (f.from) where.push(`v.started_at >= ${param(f.from, "timestamptz")}`);
  if (f.to) where.push(`v.started_at < ${param(f.to, "timestamptz")}`);
  if (f.advisorId)
    where.push(`EXISTS (SELECT 1 FROM contact_advisors a
      WHERE a.contact_id = v.contact_id AND a.advisor_id = ${param(f.advisorId, "text")})`);
  if (f.visitorLike) {
    const like = param(f.visitorLike, "text");
    where.push(`(v.customer_name ILIKE ${like} OR v.customer_email ILIKE ${like})`);
  }
  if (f.tag)
    where.push(`EXISTS (SELECT 1 FROM contact_tags t
      WHERE t.contact_id = v.contact_id AND t.tag = ${param(f.tag, "text")})`);
  if (f.before)
    where.push(`(v.ended_at, v.contact_id) <
      (${param(f.before.endedAt, "timestamptz")}, ${param(f.before.contactId, "text")})`);
  let snippet = "NULL";
  let hits = "";
  if (f.search) {
    // The matches are found first, through the GIN index, whatever the plan guesses of how
    // many there are (a statement's generic plan cannot know): then filtered, ordered, cut.
    const query = `websearch_to_tsquery('simple', ${param(f.search, "text")})`;
    hits = `WITH hits AS MATERIALIZED (
      SELECT h.contact_id FROM conversations h WHERE h.document @@ ${query})
    `;
    where.push("v.contact_id IN (SELECT contact_id FROM hits)");
    snippet = snippetSql("v.body", param(f.marked, "text"));
  }
  const text = `${hits}SELECT v.contact_id, v.started_at, v.ended_at, v.customer_name, v.customer_email,
      v.advisors, v.first_line, ${snippet} AS snippet,
      (SELECT coalesce(jsonb_agg(t.tag ORDER BY t.tag), '[]'::jsonb) FROM contact_tags t
       WHERE t.contact_id = v.contact_id) AS tags
    FROM conversations v
    ${where.length ? `WHERE ${where.join("\n      AND ")}` : ""}
    ORDER BY v.ended_at DESC, v.contact_id DESC
    LIMIT ${param(HISTORY_PAGE_SIZE + 1, "int")}`;
  return { text, values };
}

/** A page of the history, the last ended first (one more than a page, to tell there is a next). */
export async function listConversations(db: Db, f: HistoryFilter): Promise<HistoryConversation[]> {
  const { text, values } = listQuery(f);
  const rows = await db.query<Row>(text, values);
  return rows.map((r) => ({
    ContactId: r.contact_id,
    StartedAt: toIso(r.started_at),
    EndedAt: toIso(r.ended_at),
    CustomerName: r.customer_name,
    ...(r.customer_email ? { CustomerEmail: r.customer_email } : {}),
    Advisors: Array.isArray(r.advisors) ? (r.advisors as HistoryConversation["Advisors"]) : [],
    ...(r.first_line ? { FirstLine: r.first_line } : {}),
    Tags: Array.isArray(r.tags) ? (r.tags as string[]) : [],
    ...(r.snippet ? { Snippet: r.snippet } : {}),
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
