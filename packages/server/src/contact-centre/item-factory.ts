/** Builds transcript items with the fields every `aws/chat` item carries (docs/protocol.md §3.4). */
import { randomUUID } from "node:crypto";
import { ContentType, ItemType, type Item, type Receipt } from "@chat-widget/protocol";
import type { Contact, Participant } from "./types.js";

function envelope(at: string): Pick<Item, "Id" | "AbsoluteTime"> {
  return { Id: randomUUID(), AbsoluteTime: at };
}

function contactFields(contact: Contact): Pick<Item, "ContactId" | "InitialContactId"> {
  return { ContactId: contact.contactId, InitialContactId: contact.initialContactId };
}

function participantFields(
  p: Participant,
): Pick<Item, "ParticipantId" | "DisplayName" | "ParticipantRole"> {
  return { ParticipantId: p.participantId, DisplayName: p.displayName, ParticipantRole: p.role };
}

export function messageItem(
  contact: Contact,
  p: Participant,
  at: string,
  contentType: string,
  content: string | undefined,
): Item {
  return {
    ...envelope(at),
    Type: ItemType.MESSAGE,
    ContentType: contentType,
    ...(content === undefined ? {} : { Content: content }),
    ...participantFields(p),
    ...contactFields(contact),
  };
}

export function eventItem(
  contact: Contact,
  p: Participant | null,
  at: string,
  contentType: string,
  content?: string,
): Item {
  return {
    ...envelope(at),
    Type: ItemType.EVENT,
    ContentType: contentType,
    ...(content === undefined ? {} : { Content: content }),
    ...(p ? participantFields(p) : {}),
    ...contactFields(contact),
  };
}

export function attachmentItem(
  contact: Contact,
  p: Participant,
  at: string,
  attachment: { attachmentId: string; name: string; contentType: string },
): Item {
  return {
    ...envelope(at),
    Type: ItemType.ATTACHMENT,
    Attachments: [
      {
        ContentType: attachment.contentType,
        AttachmentId: attachment.attachmentId,
        AttachmentName: attachment.name,
        Status: "APPROVED",
      },
    ],
    ...participantFields(p),
    ...contactFields(contact),
  };
}

/** A read or delivered receipt: Receipts[0].RecipientParticipantId is the receipt's sender (§4.1). */
export function receiptItem(
  contact: Contact,
  sender: Participant,
  at: string,
  messageId: string,
  kind: "read" | "delivered",
): Item {
  const receipt: Receipt =
    kind === "read"
      ? { ReadTimestamp: at, RecipientParticipantId: sender.participantId }
      : { DeliveredTimestamp: at, RecipientParticipantId: sender.participantId };
  return {
    ...envelope(at),
    Type: ItemType.MESSAGE_METADATA,
    ContentType: ContentType.MESSAGE_METADATA,
    MessageMetadata: { MessageId: messageId, Receipts: [receipt] },
    ...contactFields(contact),
  };
}
