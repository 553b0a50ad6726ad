/**
 * Persistent chat (issue 26; docs/protocol.md §1.10 StartChatContact): a new chat that continues
 * an ended one starts with its past conversation. As the hosted service:
 * - `FROM_SEGMENT` continues the contact named, which must have ended;
 * - `ENTIRE_PAST_SESSION` names a past session's first contact and continues the session's latest
 *   contact, which must have ended.
 * The past contact's messages and files (never its events, receipts or typing) are copied into
 * the new contact ahead of everything else, each under a new Id with `RelatedContactId` the
 * contact it was first written on, then a `chat.rehydrated` event. The new contact joins the
 * session (its `InitialContactId` is the session's). A past contact's transcript already holds
 * the session before it, so one copy carries the whole session.
 *
 * Our gateway is public, so continuing needs proof (issue 57; Amazon Connect leaves it to the
 * company's backend). One rule, `proves`: a chat started with a verified visitor jwt is
 * continued only with a jwt of the same subject; any other chat only with the continuation
 * secret its customer received at start. Every refusal of proof is the same 403, given before
 * anything else is checked, so it never tells whether a contact exists. Once proved, a chat
 * still going, ended too long ago (CONTINUE_CHAT_MAX_AGE_DAYS) or continued already is a 400:
 * each chat is continued (copied) once, so continuing one chat over and over copies nothing.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import { ContentType, ItemType } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import { toContact, type ContactRow } from "./rows.js";
import { hashToken } from "./tokens.js";
import type { Contact } from "./types.js";

export type RehydrationType = "ENTIRE_PAST_SESSION" | "FROM_SEGMENT";

export interface PersistentChatInput {
  sourceContactId: string;
  rehydrationType: RehydrationType;
  /** The continuation secret the earlier chat's customer received (StartChatResult). */
  secret?: string;
  /** A chat that ended before this time (ISO) is too old to continue. */
  endedAfter: string;
}

/** The refusal of every continuation without proof, whatever the reason: one 403. */
export const CONTINUATION_REFUSED =
  "This chat cannot be continued: it was not found, or it is not this visitor's.";

/**
 * The subject a verified jwt payload names: its `sub` as text (a numeric user id too), trimmed;
 * none when it has no such `sub`, or an empty one, which proves nobody.
 */
export function visitorSubject(payload: Record<string, unknown>): string | undefined {
  const sub = payload.sub;
  const text = typeof sub === "string" ? sub : typeof sub === "number" ? String(sub) : "";
  return text.trim() === "" ? undefined : text.trim();
}

/** The most a continued chat carries over: the newest messages of the past session. */
export const MAX_REHYDRATED_ITEMS = 1000;

const refuse = (what: string): never => {
  throw Errors.validation(`PersistentChat.SourceContactId ${what}`);
};

interface ProvenRow extends ContactRow {
  visitor_subject: string | null;
  continuation_hash: string | null;
}

/**
 * The one rule of proof: a chat started with a verified subject is that subject's; any other is
 * its continuation secret's holder's. A chat with neither (stored before proof was kept) is
 * nobody's.
 */
export function proves(row: ProvenRow, subject: string | undefined, secret?: string): boolean {
  if (row.visitor_subject !== null) return subject !== undefined && subject === row.visitor_subject;
  if (secret === undefined || row.continuation_hash === null) return false;
  const given = Buffer.from(hashToken(secret));
  const kept = Buffer.from(row.continuation_hash);
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/**
 * The contact whose transcript a new chat continues, proved the caller's (the verified jwt's
 * `subject`, or the secret) and checked as StartChatContact checks it. Proof is of the contact
 * actually continued (ENTIRE_PAST_SESSION: the session's latest), before anything is revealed.
 * Reads only: claimContinuation claims it when the new chat is about to be written.
 */
export async function rehydrationSource(
  db: Db,
  instanceId: string,
  input: PersistentChatInput,
  subject: string | undefined,
): Promise<Contact> {
  const id = input.sourceContactId;
  const [named] = await db.query<ProvenRow>("SELECT * FROM contacts WHERE contact_id = $1", [id]);
  let row = named;
  if (named && input.rehydrationType === "ENTIRE_PAST_SESSION") {
    const [latest] = await db.query<ProvenRow>(
      `SELECT * FROM contacts WHERE initial_contact_id = $1 ORDER BY created_at DESC, contact_id
       LIMIT 1`,
      [id],
    );
    row = latest ?? named;
  }
  if (!row || row.instance_id !== instanceId || !proves(row, subject, input.secret))
    throw Errors.accessDenied(CONTINUATION_REFUSED);
  if (input.rehydrationType === "ENTIRE_PAST_SESSION" && named!.initial_contact_id !== id)
    refuse(`${id} is not the first contact of a past session (ENTIRE_PAST_SESSION needs it).`);
  const source = toContact(row);
  if (source.status !== "ended")
    refuse(`${source.contactId} has not ended: only an ended chat can be continued.`);
  if (Date.parse(source.endedAt!) < Date.parse(input.endedAfter))
    refuse(`${source.contactId} ended too long ago to be continued.`);
  return source;
}

/**
 * `source` claimed for the new chat `contactId`, so no other chat continues it (copies it
 * again); a 400 when one did. Called right before the new chat is written, which
 * releaseContinuation undoes when that write fails.
 */
export async function claimContinuation(db: Db, source: Contact, contactId: string) {
  const claimed = await db.query(
    `UPDATE contacts SET continued_by = $2 WHERE contact_id = $1 AND continued_by IS NULL
     RETURNING contact_id`,
    [source.contactId, contactId],
  );
  if (claimed.length === 0)
    refuse(`${source.contactId} was continued already: continue the chat that continued it.`);
}

/** `source` free to be continued again: the chat `contactId` that claimed it did not start. */
export async function releaseContinuation(db: Db, source: Contact, contactId: string) {
  await db.query(
    "UPDATE contacts SET continued_by = NULL WHERE contact_id = $1 AND continued_by = $2",
    [source.contactId, contactId],
  );
}

/** The past contact's messages and files, oldest first (its newest MAX_REHYDRATED_ITEMS). */
export async function pastMessages(db: Db, source: Contact): Promise<Item[]> {
  const rows = await db.query<{ item: Item }>(
    `SELECT item FROM items WHERE contact_id = $1 AND item->>'Type' IN ($2, $3)
     ORDER BY seq DESC LIMIT $4`,
    [source.contactId, ItemType.MESSAGE, ItemType.ATTACHMENT, MAX_REHYDRATED_ITEMS],
  );
  return rows.map((r) => r.item).reverse();
}

/** The past items as the new contact's, then the `chat.rehydrated` event (at `at`). */
export function rehydrated(past: Item[], contact: Contact, at: string): Item[] {
  const fields = { ContactId: contact.contactId, InitialContactId: contact.initialContactId };
  const copies = past.map((item) => ({
    ...item,
    ...fields,
    Id: randomUUID(),
    RelatedContactId: item.RelatedContactId ?? item.ContactId,
  }));
  return [
    ...copies,
    {
      Id: randomUUID(),
      Type: ItemType.EVENT,
      ContentType: ContentType.CHAT_REHYDRATED,
      AbsoluteTime: at,
      ...fields,
    },
  ];
}
