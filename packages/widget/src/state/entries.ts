/** Transcript items → widget transcript entries (docs/product.md §2 "Transcript rendering", §3). */
import { ContentType, ItemType, ParticipantRole } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";

export type Role = "customer" | "agent" | "system";

export interface AttachmentInfo {
  attachmentId: string;
  name: string;
  contentType: string;
  status: string;
}

interface EntryBase {
  id: string;
  absoluteTime: string;
  contentType: string;
  participantRole: Role;
  displayName: string;
}

/** A text message: incoming (agent, non-bot system) or outgoing (customer). */
export interface TextEntry extends EntryBase {
  kind: "text";
  /** The visitor's stored message, as far as the advisor's receipts tell (issue 24). */
  receipt?: "delivered" | "read";
  content: string;
  /** An outgoing message not stored yet (absent once stored). */
  delivery?: "sending" | "failed";
  /** The ClientToken of an outgoing message the widget wrote: kept through every retry. */
  clientToken?: string;
  /** A streamed answer still being written: shown as it grows, announced once complete. */
  streaming?: boolean;
}
/**
 * A bot interactive message: one of the five templates, kept as the JSON it came in (the views
 * script checks and renders it; what it cannot read shows nothing).
 */
export interface TemplateEntry extends EntryBase {
  kind: "template";
  content: string;
}
export interface AttachmentEntry extends EntryBase {
  kind: "attachment";
  content: string;
  attachment: AttachmentInfo;
}
/** Joined, left and chat ended: shown as the locale's line, with the advisor's name. */
export interface EventEntry extends EntryBase {
  kind: "event";
  event: "JOINED" | "LEFT" | "CHAT_ENDED" | "TRANSFERRED";
  /** Who joined or left ("" for Advisor in the visitor's language); "" when the chat ended. */
  name: string;
}

export type Entry = TextEntry | TemplateEntry | AttachmentEntry | EventEntry;

export const BOT_DISPLAY_NAME = "BOT";
export const BOT_INPUT_SENTINEL = "input";

export type Classified =
  | { kind: "entry"; entry: Entry }
  /** A BOT plain or markdown system message: never shown, echoed back (docs/product.md §4, docs/decisions.md #4). */
  | { kind: "botMessage"; content: string; contentType: string }
  | { kind: "ignore" };

const TEXT_TYPES: readonly string[] = [ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN];
const IGNORED_EVENTS: readonly string[] = [
  ContentType.TYPING,
  ContentType.READ_RECEIPT,
  ContentType.DELIVERED_RECEIPT,
  ContentType.MESSAGE_METADATA,
];

export function roleOf(item: Item): Role {
  const role = item.ParticipantRole;
  if (role === ParticipantRole.CUSTOMER) return "customer";
  if (role === ParticipantRole.AGENT) return "agent";
  return "system";
}

export function isBot(item: Item): boolean {
  return item.ParticipantRole === ParticipantRole.SYSTEM && item.DisplayName === BOT_DISPLAY_NAME;
}

export function isFromCustomer(item: Item): boolean {
  return item.ParticipantRole === ParticipantRole.CUSTOMER;
}

export function isChatEnded(item: Item): boolean {
  return item.ContentType === ContentType.CHAT_ENDED || item.Type === ItemType.CHAT_ENDED;
}

/** Whether an item is a participant message (what gets a delivered receipt and clears typing). */
export function isMessage(item: Item): boolean {
  return item.Type === ItemType.MESSAGE;
}

function base(item: Item): EntryBase {
  return {
    id: item.Id,
    absoluteTime: item.AbsoluteTime,
    contentType: item.ContentType ?? "",
    participantRole: roleOf(item),
    displayName: item.DisplayName ?? "",
  };
}

const nameOf = (item: Item): string => item.DisplayName?.trim() ?? "";

export function classify(item: Item): Classified {
  const contentType = item.ContentType ?? "";
  if (item.Type === ItemType.ATTACHMENT || (item.Attachments?.length ?? 0) > 0) {
    const a = item.Attachments?.[0];
    if (!a) return { kind: "ignore" };
    const attachment: AttachmentInfo = {
      attachmentId: a.AttachmentId,
      name: a.AttachmentName,
      contentType: a.ContentType,
      status: a.Status,
    };
    return {
      kind: "entry",
      entry: { ...base(item), kind: "attachment", content: a.AttachmentName, attachment },
    };
  }
  if (isChatEnded(item)) {
    return {
      kind: "entry",
      entry: { ...base(item), kind: "event", event: "CHAT_ENDED", name: "" },
    };
  }
  if (contentType === ContentType.TRANSFER_SUCCEEDED) {
    return {
      kind: "entry",
      entry: { ...base(item), kind: "event", event: "TRANSFERRED", name: "" },
    };
  }
  const joinedOrLeft =
    contentType === ContentType.PARTICIPANT_JOINED ||
    item.Type === ItemType.PARTICIPANT_JOINED ||
    contentType === ContentType.PARTICIPANT_LEFT ||
    item.Type === ItemType.PARTICIPANT_LEFT;
  // Only advisors join and leave visibly: no lines about the visitor or the bot (issue 24).
  if (joinedOrLeft && (item.ParticipantRole === "CUSTOMER" || item.ParticipantRole === "SYSTEM"))
    return { kind: "ignore" };
  if (contentType === ContentType.PARTICIPANT_JOINED || item.Type === ItemType.PARTICIPANT_JOINED) {
    return {
      kind: "entry",
      entry: { ...base(item), kind: "event", event: "JOINED", name: nameOf(item) },
    };
  }
  if (contentType === ContentType.PARTICIPANT_LEFT || item.Type === ItemType.PARTICIPANT_LEFT) {
    return {
      kind: "entry",
      entry: { ...base(item), kind: "event", event: "LEFT", name: nameOf(item) },
    };
  }
  if (item.Type !== ItemType.MESSAGE || IGNORED_EVENTS.includes(contentType))
    return { kind: "ignore" };
  if (contentType === ContentType.INTERACTIVE_MESSAGE) {
    return typeof item.Content === "string"
      ? { kind: "entry", entry: { ...base(item), kind: "template", content: item.Content } }
      : { kind: "ignore" };
  }
  if (!TEXT_TYPES.includes(contentType) || typeof item.Content !== "string")
    return { kind: "ignore" };
  if (isBot(item)) return { kind: "botMessage", content: item.Content, contentType };
  return { kind: "entry", entry: { ...base(item), kind: "text", content: item.Content } };
}
