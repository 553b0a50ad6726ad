import type { Db } from "../store/db.js";
import type { Item } from "@chat-widget/protocol";
import { appendedRows, insertingItems } from "./items-repo.js";
import type { NewParticipantRow } from "./participants-repo.js";
import type { ChatOpening, Contact } from "./types.js";

/** What starting a chat writes: the contact, its participants and its first items. */
export interface NewChat {
  contact: Contact;
  /** When the chat runs out (ChatDurationInMinutes after it starts). */
  expiresAt: string;
  /** Its customer, and whoever joins with it (the flow's SYSTEM participant). */
  participants: NewParticipantRow[];
  /** The first items, numbered from 1. */
  items: Item[];
  /** What proves a later start-chat the same visitor's, to continue it (rehydration.ts). */
  proof: { visitorSubject: string | null; continuationHash: string };
}

/**
 * A write of another module's that goes into the chats' own statement (a data-modifying part of
 * it, e.g. an INSERT; no RETURNING): its SQL with its parameters numbered from `$first`.
 */
export interface StatementPart {
  sql: (first: number) => string;
  params: unknown[];
}

/**
 * Inserts these new chats whole in ONE statement (atomic on its own, no transaction around it):
 * their contacts, already numbered to their last item, their participants and their items, and
 * `parts` (what their openings keep).
 */
export async function insertChats(
  db: Db,
  chats: readonly NewChat[],
  parts: readonly StatementPart[] = [],
): Promise<void> {
  if (chats.length === 0) return;
  const column = <T>(rows: readonly T[], value: (row: T) => unknown) => rows.map(value);
  const contacts = chats.map((c) => c.contact);
  const participants = chats.flatMap((c) => c.participants);
  const appended = appendedRows(
    chats.map((c) => ({ contactId: c.contact.contactId, lastSeq: 0, items: c.items })),
  );
  await db.query(
    `WITH new_contacts AS (
       INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status,
         attributes, supported_content_types, created_at, expires_at, last_seq, last_item_at,
         visitor_subject, continuation_hash, attribute_sources)
       SELECT contact_id, initial_contact_id, instance_id, contact_flow_id, 'active',
         attributes, supported_content_types, created_at, expires_at, last_seq, last_item_at,
         visitor_subject, continuation_hash, attribute_sources
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[],
         $7::timestamptz[], $8::timestamptz[], $9::int[], $10::timestamptz[], $11::text[],
         $12::text[], $13::jsonb[])
         AS v(contact_id, initial_contact_id, instance_id, contact_flow_id, attributes,
           supported_content_types, created_at, expires_at, last_seq, last_item_at,
           visitor_subject, continuation_hash, attribute_sources)
     ), new_participants AS (
       INSERT INTO participants (participant_id, contact_id, role, display_name, token_hash,
         created_at)
       SELECT * FROM unnest($14::text[], $15::text[], $16::text[], $17::text[], $18::text[],
         $19::timestamptz[])
     )${withParts(parts, 20 + appended.items.length)}
     ${insertingItems(20)}`,
    [
      column(contacts, (c) => c.contactId),
      column(contacts, (c) => c.initialContactId),
      column(contacts, (c) => c.instanceId),
      column(contacts, (c) => c.contactFlowId),
      column(contacts, (c) => JSON.stringify(c.attributes)),
      column(contacts, (c) => JSON.stringify(c.supportedContentTypes)),
      column(contacts, (c) => c.createdAt),
      column(chats, (c) => c.expiresAt),
      column(chats, (c) => c.items.length),
      column(chats, (c) => c.items.at(-1)?.AbsoluteTime ?? null),
      column(chats, (c) => c.proof.visitorSubject),
      column(chats, (c) => c.proof.continuationHash),
      column(contacts, (c) => JSON.stringify(c.attributeSources ?? {})),
      column(participants, (p) => p.participantId),
      column(participants, (p) => p.contactId),
      column(participants, (p) => p.role),
      column(participants, (p) => p.displayName),
      column(participants, (p) => p.tokenHash),
      column(participants, (p) => p.createdAt),
      ...appended.items,
      ...parts.flatMap((part) => part.params),
    ],
  );
}

/** A chat to start, and what its opening writes with it (see ChatOpening). */
export interface Start {
  chat: NewChat;
  opening: Pick<ChatOpening, "kept" | "write"> | null;
}

/** New chats in one statement, with their openings' writes (one per `write`, see ChatOpening). */
export async function writeStarts(db: Db, starts: readonly Start[]): Promise<void> {
  const writes = new Map<ChatOpening["write"], unknown[]>();
  for (const { opening } of starts) {
    if (opening) writes.set(opening.write, [...(writes.get(opening.write) ?? []), opening.kept]);
  }
  const parts = [...writes].map(([write, kept]) => write(kept));
  await insertChats(
    db,
    starts.map((s) => s.chat),
    parts,
  );
}

/** `parts` as the statement's further CTEs, their parameters numbered from `$first`. */
function withParts(parts: readonly StatementPart[], first: number): string {
  let next = first;
  return parts
    .map((part, i) => {
      const sql = part.sql(next);
      next += part.params.length;
      return `, part_${i} AS (${sql})`;
    })
    .join("");
}
