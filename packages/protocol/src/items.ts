/** Transcript items: the payload of GetTranscript and of websocket `aws/chat` frames (docs/protocol.md §1.10, §3.4). */

export const ParticipantRole = {
  AGENT: "AGENT",
  CUSTOMER: "CUSTOMER",
  SYSTEM: "SYSTEM",
  CUSTOM_BOT: "CUSTOM_BOT",
  SUPERVISOR: "SUPERVISOR",
} as const;
export type ParticipantRoleValue = (typeof ParticipantRole)[keyof typeof ParticipantRole];

export const ItemType = {
  MESSAGE: "MESSAGE",
  EVENT: "EVENT",
  ATTACHMENT: "ATTACHMENT",
  MESSAGE_METADATA: "MESSAGEMETADATA",
  TYPING: "TYPING",
  PARTICIPANT_JOINED: "PARTICIPANT_JOINED",
  PARTICIPANT_LEFT: "PARTICIPANT_LEFT",
  CHAT_ENDED: "CHAT_ENDED",
  TRANSFER_SUCCEEDED: "TRANSFER_SUCCEEDED",
  TRANSFER_FAILED: "TRANSFER_FAILED",
  CONNECTION_ACK: "CONNECTION_ACK",
  MESSAGE_DELIVERED: "MESSAGE_DELIVERED",
  MESSAGE_READ: "MESSAGE_READ",
} as const;
export type ItemTypeValue = (typeof ItemType)[keyof typeof ItemType];

export type AttachmentStatus = "APPROVED" | "REJECTED" | "IN_PROGRESS";

export interface AttachmentItem {
  ContentType: string;
  AttachmentId: string;
  AttachmentName: string;
  Status: AttachmentStatus;
}

export interface Receipt {
  DeliveredTimestamp?: string;
  ReadTimestamp?: string;
  RecipientParticipantId?: string;
}

export interface MessageMetadata {
  MessageId: string;
  Receipts?: Receipt[];
  MessageProcessingStatus?: "PROCESSING" | "FAILED" | "REJECTED";
  MessageCompleted?: boolean;
  ChunkNumber?: number;
}

export interface Item {
  AbsoluteTime: string;
  Content?: string;
  ContentType?: string;
  Id: string;
  Type: ItemTypeValue | string;
  ParticipantId?: string;
  DisplayName?: string;
  ParticipantRole?: ParticipantRoleValue | string;
  Attachments?: AttachmentItem[];
  MessageMetadata?: MessageMetadata;
  ContactId?: string;
  InitialContactId?: string;
  RelatedContactId?: string;
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural guard: the fields every item must carry have the right types. */
export function isItem(value: unknown): value is Item {
  if (!isObject(value)) return false;
  return (
    typeof value.Id === "string" &&
    typeof value.Type === "string" &&
    typeof value.AbsoluteTime === "string" &&
    (value.Content === undefined || typeof value.Content === "string") &&
    (value.ContentType === undefined || typeof value.ContentType === "string")
  );
}
