/**
 * A visitor's earlier conversations: the ended contacts of the same instance whose verified
 * jwt subject is this contact's, newest first, each with its first advisor and the visitor's
 * first own words: not an echo of the bot (decisions #4: the widget sends the bot's lines back;
 * here any customer line repeating an earlier bot line counts as one), nor, while they wrote
 * anything else, a choice picked from a bot's picker (a line found, as a JSON string, in an
 * earlier interactive message: "Talk to an advisor").
 */
import {
  ContentType,
  EARLIER_CONVERSATIONS_MAX,
  FIRST_LINE_MAX,
  type EarlierConversation,
} from "@chat-widget/protocol";
import { toIso } from "../contact-centre/rows.js";
import type { Db } from "../store/db.js";

/**
 * The visitor's first message in contact `contact` (an SQL expression), not an echo of a bot
 * line, and not a picked choice unless they wrote nothing else, cut to `max` characters;
 * `plain` and `markdown` are the text content types' parameters.
 */
export const firstLineSql = (contact: string, max: string, plain: string, markdown: string) =>
  `(SELECT left(i.item ->> 'Content', ${max}) FROM items i
     WHERE i.contact_id = ${contact} AND i.item ->> 'Type' = 'MESSAGE'
       AND i.item ->> 'ParticipantRole' = 'CUSTOMER'
       AND i.item ->> 'ContentType' IN (${plain}, ${markdown})
       AND NOT EXISTS (
         SELECT 1 FROM items b
         WHERE b.contact_id = i.contact_id AND b.seq < i.seq
           AND b.item ->> 'ParticipantRole' = 'SYSTEM' AND b.item ->> 'DisplayName' = 'BOT'
           AND b.item ->> 'Content' = i.item ->> 'Content')
     ORDER BY EXISTS (
         SELECT 1 FROM items b
         WHERE b.contact_id = i.contact_id AND b.seq < i.seq
           AND b.item ->> 'ContentType' = '${ContentType.INTERACTIVE_MESSAGE}'
           AND strpos(b.item ->> 'Content', to_jsonb(i.item ->> 'Content')::text) > 0),
       i.seq
     LIMIT 1)`;

interface Row {
  contact_id: string;
  created_at: unknown;
  ended_at: unknown;
  advisor: string | null;
  first_line: string | null;
}

export async function earlierConversations(
  db: Db,
  contactId: string,
): Promise<EarlierConversation[]> {
  const rows = await db.query<Row>(
    `WITH me AS (
       SELECT visitor_subject, instance_id FROM contacts
       WHERE contact_id = $1 AND visitor_subject IS NOT NULL
     )
     SELECT c.contact_id, c.created_at, c.ended_at,
       (SELECT p.display_name FROM participants p
         WHERE p.contact_id = c.contact_id AND p.role = 'AGENT'
         ORDER BY p.created_at, p.participant_id LIMIT 1) AS advisor,
       ${firstLineSql("c.contact_id", "$3", "$4", "$5")} AS first_line
     FROM contacts c, me
     WHERE c.visitor_subject = me.visitor_subject AND c.instance_id = me.instance_id
       AND c.status = 'ended' AND c.contact_id <> $1
     ORDER BY c.created_at DESC, c.contact_id
     LIMIT $2`,
    [
      contactId,
      EARLIER_CONVERSATIONS_MAX,
      FIRST_LINE_MAX,
      ContentType.TEXT_PLAIN,
      ContentType.TEXT_MARKDOWN,
    ],
  );
  return rows.map((r) => ({
    ContactId: r.contact_id,
    StartedAt: toIso(r.created_at),
    EndedAt: toIso(r.ended_at ?? r.created_at),
    ...(r.advisor ? { AdvisorName: r.advisor } : {}),
    ...(r.first_line ? { FirstLine: r.first_line } : {}),
  }));
}
