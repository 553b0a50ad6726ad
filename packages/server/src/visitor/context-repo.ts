/** The visitor_context table: what the visitor's browser said of itself at start-chat. */
import type { Db } from "../store/db.js";

export interface VisitorContext {
  userAgent: string;
  acceptLanguage: string;
}

/** The most characters kept of each header: a longer one is cut, never refused. */
export const CONTEXT_TEXT_MAX = 512;

const cut = (text: string | undefined) => (text ?? "").slice(0, CONTEXT_TEXT_MAX);

/** Record a new chat's context once (a second call for the contact changes nothing). */
export async function recordVisitorContext(
  db: Db,
  contactId: string,
  context: VisitorContext,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO visitor_context (contact_id, user_agent, accept_language, recorded_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT (contact_id) DO NOTHING`,
    [contactId, cut(context.userAgent), cut(context.acceptLanguage), at],
  );
}

export async function findVisitorContext(
  db: Db,
  contactId: string,
): Promise<VisitorContext | null> {
  const [row] = await db.query<{ user_agent: string; accept_language: string }>(
    "SELECT user_agent, accept_language FROM visitor_context WHERE contact_id = $1",
    [contactId],
  );
  return row ? { userAgent: row.user_agent, acceptLanguage: row.accept_language } : null;
}
