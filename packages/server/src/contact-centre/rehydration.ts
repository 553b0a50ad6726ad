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
 */
import { randomUUID } from "node:crypto";
import { ContentType, ItemType } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import { findContact } from "./contacts-repo.js";
import { toContact, type ContactRow } from "./rows.js";
import type { Contact } from "./types.js";

export type RehydrationType = "ENTIRE_PAST_SESSION" | "FROM_SEGMENT";

export interface PersistentChatInput {
  sourceContactId: string;
  rehydrationType: RehydrationType;
}

/** The most a continued chat carries over: the newest messages of the past session. */
export const MAX_REHYDRATED_ITEMS = 1000;

const refuse = (what: string): never => {
  throw Errors.validation(`PersistentChat.SourceContactId ${what}`);
};

/** The contact whose transcript the new chat continues, checked as StartChatContact checks it. */
export async function rehydrationSource(
  db: Db,
  instanceId: string,
  input: PersistentChatInput,
): Promise<Contact> {
  const id = input.sourceContactId;
  let source = await findContact(db, id);
  if (!source || source.instanceId !== instanceId)
    return refuse(`${id} is not a contact of this instance.`);
  if (input.rehydrationType === "ENTIRE_PAST_SESSION") {
    if (source.initialContactId !== source.contactId)
      refuse(`${id} is not the first contact of a past session (ENTIRE_PAST_SESSION needs it).`);
    const [latest] = await db.query<ContactRow>(
      `SELECT * FROM contacts WHERE initial_contact_id = $1 ORDER BY created_at DESC, contact_id
       LIMIT 1`,
      [id],
    );
    if (latest) source = toContact(latest);
  }
  if (source.status !== "ended")
    refuse(`${source.contactId} has not ended: only an ended chat can be continued.`);
  return source;
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
