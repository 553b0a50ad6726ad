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

/** What SendMessage (or the flow) asks to say; the flow's own fields apply to SYSTEM only. */
export interface MessageInput {
  contentType: string;
  content: string;
  /** PostInput's: said under this name. */
  displayName?: string | undefined;
  /** PostInput's: the Id of the stream this message completes. */
  completes?: string | undefined;
  /** PostInput's: the flow's own Id for it. */
  id?: string | undefined;
}

/** The Id a SYSTEM participant gives its message itself (PostInput's `completes` or `id`). */
export function ownId(
  p: Participant,
  input: Pick<MessageInput, "completes" | "id">,
): string | undefined {
  return p.role === "SYSTEM" ? (input.completes ?? input.id) : undefined;
}

/** The message `p` sends: the flow's own name and Id where a SYSTEM participant gives them. */
export function sentMessage(
  contact: Contact,
  p: Participant,
  at: string,
  input: MessageInput,
): Item {
  const system = p.role === "SYSTEM";
  const speaker = system && input.displayName ? { ...p, displayName: input.displayName } : p;
  const item = messageItem(contact, speaker, at, input.contentType, input.content);
  if (!system) return item;
  if (input.completes !== undefined) {
    const Id = input.completes;
    return { ...item, Id, MessageMetadata: { MessageId: Id, MessageCompleted: true } };
  }
  return input.id !== undefined ? { ...item, Id: input.id } : item;
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
