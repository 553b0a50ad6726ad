/**
 * Incoming content types mapped to session events (docs/product.md §4, docs/protocol.md §7): typing, receipts,
 * idle, returned, auto-disconnection and a few more have their own events; everything else
 * is an incoming message.
 */
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import type { ChatEventName } from "./events.js";

const OWN_EVENTS: Record<string, ChatEventName> = {
  [ContentType.TYPING]: "typing",
  [ContentType.READ_RECEIPT]: "readReceipt",
  [ContentType.DELIVERED_RECEIPT]: "deliveredReceipt",
  [ContentType.PARTICIPANT_IDLE]: "participantIdle",
  [ContentType.PARTICIPANT_RETURNED]: "participantReturned",
  [ContentType.PARTICIPANT_INVITED]: "participantInvited",
  [ContentType.PARTICIPANT_AUTO_DISCONNECTION]: "autoDisconnection",
  [ContentType.CHAT_REHYDRATED]: "chatRehydrated",
  [ContentType.PARTICIPANT_DISPLAY_NAME_UPDATED]: "participantDisplayNameUpdated",
  [ContentType.AUTHENTICATION_INITIATED]: "authenticationEvent",
  [ContentType.AUTHENTICATION_SUCCESSFUL]: "authenticationEvent",
  [ContentType.AUTHENTICATION_FAILED]: "authenticationEvent",
  [ContentType.AUTHENTICATION_TIMEOUT]: "authenticationEvent",
  [ContentType.AUTHENTICATION_EXPIRED]: "authenticationEvent",
  [ContentType.AUTHENTICATION_CANCELLED]: "authenticationEvent",
};

export function eventForContentType(contentType: string | undefined): ChatEventName {
  return (contentType && OWN_EVENTS[contentType]) || "message";
}

const isMetadataType = (type: string) =>
  type === ItemType.MESSAGE_METADATA || type === "MESSAGE_METADATA";

/**
 * The event an item is delivered as, or null to drop it. Receipts come only from metadata
 * items, derived from `Receipts[0]`, and never for receipts the session itself sent.
 */
export function eventForItem(item: Item, ownParticipantId: string): ChatEventName | null {
  const event = eventForContentType(item.ContentType);
  const isReceipt =
    event === "readReceipt" || event === "deliveredReceipt" || isMetadataType(item.Type);
  if (!isReceipt) return event;
  const receipt = item.MessageMetadata?.Receipts?.[0];
  if (!receipt || receipt.RecipientParticipantId === ownParticipantId) return null;
  if (receipt.ReadTimestamp) return "readReceipt";
  if (receipt.DeliveredTimestamp) return "deliveredReceipt";
  return null;
}
