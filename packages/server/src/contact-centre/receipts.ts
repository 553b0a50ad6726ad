import type { Item } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";
import { Errors } from "../errors.js";
import { receiptItem } from "./item-factory.js";
import { findItem } from "./items-repo.js";
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
 * A read or delivered receipt (protocol §4): the MESSAGEMETADATA item for a message or
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
