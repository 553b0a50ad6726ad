import { ItemType, type Item, type Receipt } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";
import { Errors } from "../errors.js";
import { receiptItem } from "./item-factory.js";
import { findItem, findReceiptItems } from "./items-repo.js";
import { listParticipants } from "./participants-repo.js";
import type { Contact, Participant } from "./types.js";

/** The `messageId` of a receipt's Content (`{"messageId": "…"}`, other keys ignored). */
function receiptMessageId(content: string | undefined): string {
  let messageId: unknown;
  try {
    messageId = (JSON.parse(content ?? "") as { messageId?: unknown } | null)?.messageId;
  } catch {
    messageId = undefined;
  }
  if (typeof messageId !== "string" || messageId.length === 0) {
    throw Errors.validation('A receipt\'s Content must be a JSON object with a "messageId".');
  }
  return messageId;
}

/**
 * A read or delivered receipt (docs/protocol.md §4): the MESSAGEMETADATA item for a message or
 * attachment of this contact; ConflictException with more than two active participants.
 */
export async function buildReceipt(
  tx: Db,
  contact: Contact,
  sender: Participant,
  at: string,
  content: string | undefined,
  kind: "read" | "delivered",
): Promise<Item> {
  const messageId = receiptMessageId(content);
  const message = await findItem(tx, contact.contactId, messageId);
  if (!message || (message.Type !== "MESSAGE" && message.Type !== "ATTACHMENT")) {
    throw Errors.validation(`Message ${messageId} was not found in this chat.`);
  }
  const active = (await listParticipants(tx, contact.contactId)).filter(
    (x) => !x.leftAt && x.role !== "SYSTEM",
  );
  if (active.length > 2) {
    throw Errors.conflict("Message receipts are not supported with more than two participants.");
  }
  return receiptItem(contact, sender, at, messageId, kind);
}

/**
 * Transcript items as GetTranscript answers them: each message or attachment that has receipts
 * carries them in its own `MessageMetadata.Receipts` (the SDK model's Item), one per reader with
 * the first time it was delivered and read, wherever in the transcript the receipt items are.
 * The receipt items themselves stay in the transcript (chatjs seeds its receipt sets from them).
 */
export async function withReceipts(db: Db, contactId: string, items: Item[]): Promise<Item[]> {
  const acknowledgeable = (item: Item) =>
    item.Type === ItemType.MESSAGE || item.Type === ItemType.ATTACHMENT;
  const ids = items.filter(acknowledgeable).map((item) => item.Id);
  const byMessage = new Map<string, Map<string, Receipt>>();
  for (const receiptItem of await findReceiptItems(db, contactId, ids)) {
    const messageId = receiptItem.MessageMetadata?.MessageId;
    const receipt = receiptItem.MessageMetadata?.Receipts?.[0];
    const reader = receipt?.RecipientParticipantId;
    if (!messageId || !receipt || !reader) continue;
    const readers = byMessage.get(messageId) ?? new Map<string, Receipt>();
    byMessage.set(messageId, readers);
    const merged = readers.get(reader) ?? { RecipientParticipantId: reader };
    if (!merged.DeliveredTimestamp && receipt.DeliveredTimestamp) {
      merged.DeliveredTimestamp = receipt.DeliveredTimestamp;
    }
    if (!merged.ReadTimestamp && receipt.ReadTimestamp)
      merged.ReadTimestamp = receipt.ReadTimestamp;
    readers.set(reader, merged);
  }
  return items.map((item) => {
    const readers = acknowledgeable(item) ? byMessage.get(item.Id) : undefined;
    if (!readers) return item;
    const Receipts = [...readers.values()];
    return { ...item, MessageMetadata: { ...item.MessageMetadata, MessageId: item.Id, Receipts } };
  });
}
