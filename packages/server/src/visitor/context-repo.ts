/** The visitor_context table: what the visitor's browser said of itself, and the page they are on. */
import { toIso } from "../contact-centre/rows.js";
import type { Db } from "../store/db.js";

export interface VisitorContext {
  userAgent: string;
  acceptLanguage: string;
  /** The page last reported, and when; null before the first report. */
  page: { url: string; title: string; at: string } | null;
  timeZone: string | null;
}

/** The most characters kept of each header: a longer one is cut, never refused. */
export const CONTEXT_TEXT_MAX = 512;

const cut = (text: string | undefined) => (text ?? "").slice(0, CONTEXT_TEXT_MAX);

/** Record a new chat's headers once (a second call for the contact changes nothing). */
export async function recordVisitorContext(
  db: Db,
  contactId: string,
  headers: { userAgent: string; acceptLanguage: string },
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO visitor_context (contact_id, user_agent, accept_language, recorded_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT (contact_id) DO NOTHING`,
    [contactId, cut(headers.userAgent), cut(headers.acceptLanguage), at],
  );
}

/**
 * The page the visitor reports (already checked and cut by the route). A report older than the
 * one stored (two tabs, a slow request) does not replace it. False when nothing changed.
 */
export async function recordVisitorPage(
  db: Db,
  contactId: string,
  page: { url: string; title: string; timeZone: string | null },
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO visitor_context
       (contact_id, user_agent, accept_language, recorded_at, page_url, page_title, page_at, time_zone)
     VALUES ($1, '', '', $4, $2, $3, $4, $5)
     ON CONFLICT (contact_id) DO UPDATE SET
       page_url = EXCLUDED.page_url, page_title = EXCLUDED.page_title,
       page_at = EXCLUDED.page_at, time_zone = COALESCE(EXCLUDED.time_zone, visitor_context.time_zone)
     WHERE (visitor_context.page_at IS NULL OR visitor_context.page_at <= EXCLUDED.page_at)
       AND (visitor_context.page_url IS DISTINCT FROM EXCLUDED.page_url
         OR visitor_context.page_title IS DISTINCT FROM EXCLUDED.page_title
         OR visitor_context.time_zone IS DISTINCT FROM COALESCE(EXCLUDED.time_zone, visitor_context.time_zone))
     RETURNING 1`,
    [contactId, page.url, page.title, at, page.timeZone],
  );
  return rows.length > 0;
}

interface Row {
  user_agent: string;
  accept_language: string;
  page_url: string | null;
  page_title: string | null;
  page_at: unknown;
  time_zone: string | null;
}

export async function findVisitorContext(
  db: Db,
  contactId: string,
): Promise<VisitorContext | null> {
  const [row] = await db.query<Row>(
    `SELECT user_agent, accept_language, page_url, page_title, page_at, time_zone
     FROM visitor_context WHERE contact_id = $1`,
    [contactId],
  );
  if (!row) return null;
  return {
    userAgent: row.user_agent,
    acceptLanguage: row.accept_language,
    page:
      row.page_url !== null && row.page_at !== null
        ? { url: row.page_url, title: row.page_title ?? "", at: toIso(row.page_at) }
        : null,
    timeZone: row.time_zone,
  };
}
