/** The contact_notes table: advisors' internal notes on a conversation (never transcript items). */
import type { Note } from "@chat-widget/protocol";
import { toIso } from "../contact-centre/rows.js";
import type { Db } from "../store/db.js";

interface Row {
  note_id: string;
  contact_id: string;
  advisor_id: string;
  advisor_name: string;
  body: string;
  mentions: unknown;
  created_at: unknown;
  kind?: string;
}

const toNote = (r: Row): Note => ({
  NoteId: r.note_id,
  ContactId: r.contact_id,
  AdvisorId: r.advisor_id,
  AdvisorName: r.advisor_name,
  Body: r.body,
  CreatedAt: toIso(r.created_at),
  ...(r.kind === "wrap-up" ? { WrapUp: true } : {}),
  Mentions: Array.isArray(r.mentions) ? (r.mentions as string[]) : [],
});

export interface NewNote {
  noteId: string;
  contactId: string;
  advisorId: string;
  advisorName: string;
  body: string;
  mentions: string[];
  clientToken: string | null;
  createdAt: string;
}

/**
 * Store a note; with a ClientToken the advisor already used on this chat, the first note is
 * returned instead (`created` false) and nothing is stored.
 */
export async function insertNote(db: Db, n: NewNote): Promise<{ note: Note; created: boolean }> {
  const [inserted] = await db.query<Row>(
    `INSERT INTO contact_notes
       (note_id, contact_id, advisor_id, advisor_name, body, mentions, client_token, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     ON CONFLICT (contact_id, advisor_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
     RETURNING *`,
    [
      n.noteId,
      n.contactId,
      n.advisorId,
      n.advisorName,
      n.body,
      JSON.stringify(n.mentions),
      n.clientToken,
      n.createdAt,
    ],
  );
  if (inserted) return { note: toNote(inserted), created: true };
  const [first] = await db.query<Row>(
    `SELECT * FROM contact_notes
     WHERE contact_id = $1 AND advisor_id = $2 AND client_token = $3`,
    [n.contactId, n.advisorId, n.clientToken],
  );
  return { note: toNote(first!), created: false };
}

/** The conversation's notes, oldest first. */
export async function listNotes(db: Db, contactId: string): Promise<Note[]> {
  const rows = await db.query<Row>(
    "SELECT * FROM contact_notes WHERE contact_id = $1 ORDER BY created_at, note_id",
    [contactId],
  );
  return rows.map(toNote);
}

export async function countNotes(db: Db, contactId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM contact_notes WHERE contact_id = $1",
    [contactId],
  );
  return Number(row?.n ?? 0);
}

/** The conversation's wrap-up, written again: one per conversation, the last one kept. */
export async function putWrapUp(
  db: Db,
  n: Omit<NewNote, "mentions" | "clientToken">,
): Promise<Note> {
  const [row] = await db.query<Row>(
    `INSERT INTO contact_notes
       (note_id, contact_id, advisor_id, advisor_name, body, mentions, client_token, created_at, kind)
     VALUES ($1, $2, $3, $4, $5, '[]'::jsonb, NULL, $6, 'wrap-up')
     ON CONFLICT (contact_id) WHERE kind = 'wrap-up' DO UPDATE
       SET advisor_id = EXCLUDED.advisor_id, advisor_name = EXCLUDED.advisor_name,
           body = EXCLUDED.body, created_at = EXCLUDED.created_at
     RETURNING *`,
    [n.noteId, n.contactId, n.advisorId, n.advisorName, n.body, n.createdAt],
  );
  return toNote(row!);
}
