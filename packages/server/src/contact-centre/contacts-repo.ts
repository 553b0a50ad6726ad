import type { AttributeSource } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";
import { toContact, type ContactRow } from "./rows.js";
import type { Contact } from "./types.js";

/** Active contacts whose time ran out at `nowIso`, oldest first. */
export async function findExpiredContacts(
  db: Db,
  nowIso: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ contact_id: string }>(
    `SELECT contact_id FROM contacts WHERE status = 'active' AND expires_at <= $1
     ORDER BY expires_at LIMIT $2`,
    [nowIso, limit],
  );
  return rows.map((r) => r.contact_id);
}

export async function findContact(db: Db, contactId: string): Promise<Contact | null> {
  const [row] = await db.query<ContactRow>("SELECT * FROM contacts WHERE contact_id = $1", [
    contactId,
  ]);
  return row ? toContact(row) : null;
}

/** The seq of the contact's last item (0: none, or no such contact). */
export async function findLastSeq(db: Db, contactId: string): Promise<number> {
  const [row] = await db.query<{ last_seq: number }>(
    "SELECT last_seq FROM contacts WHERE contact_id = $1",
    [contactId],
  );
  return row?.last_seq ?? 0;
}

/** The seq of each contact's last item, by contact (none for a contact not found). */
export async function findLastSeqs(db: Db, contactIds: string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ contact_id: string; last_seq: number }>(
    "SELECT contact_id, last_seq FROM contacts WHERE contact_id = ANY($1::text[])",
    [contactIds],
  );
  return new Map(rows.map((r) => [r.contact_id, r.last_seq]));
}

/** Lock the contact row for the rest of the transaction: every change to a contact starts here. */
export async function lockContact(tx: Db, contactId: string): Promise<ContactRow | null> {
  const [row] = await tx.query<ContactRow>(
    "SELECT * FROM contacts WHERE contact_id = $1 FOR UPDATE",
    [contactId],
  );
  return row ?? null;
}

export async function markContactEnded(tx: Db, contactId: string, at: string): Promise<void> {
  await tx.query("UPDATE contacts SET status = 'ended', ended_at = $2 WHERE contact_id = $1", [
    contactId,
    at,
  ]);
}

export async function mergeAttributes(
  db: Db,
  contactId: string,
  attributes: Record<string, string>,
  maxKeys: number,
  source: AttributeSource,
): Promise<Contact | "too many" | null> {
  // The count is checked in the UPDATE itself (re-checked against the newest row when merges
  // run at once), so concurrent merges cannot each fit and together pass it.
  const sources = Object.fromEntries(Object.keys(attributes).map((k) => [k, source]));
  const [row] = await db.query<ContactRow>(
    `UPDATE contacts SET attributes = attributes || $2::jsonb,
       attribute_sources = attribute_sources || $4::jsonb
     WHERE contact_id = $1 AND (SELECT count(*) FROM jsonb_object_keys(attributes || $2::jsonb)) <= $3
     RETURNING *`,
    [contactId, JSON.stringify(attributes), maxKeys, JSON.stringify(sources)],
  );
  if (row) return toContact(row);
  return (await findContact(db, contactId)) ? "too many" : null;
}
