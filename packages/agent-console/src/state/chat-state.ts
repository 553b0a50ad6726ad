/** What the console knows about one accepted chat, and the pure rules that change it. */
import {
  ContentType,
  ItemType,
  ParticipantRole,
  type AttributeSource,
  type Item,
} from "@chat-widget/protocol";

export type ReceiptMark = "delivered" | "read";

export interface ChatInfo {
  ContactId: string;
  InitialContactId: string;
  ParticipantId: string;
  ParticipantToken: string;
  CustomerName: string;
  Attributes: Record<string, string>;
  /** Where each attribute came from: "jwt" is verified (issue 57). */
  AttributeSources: Record<string, AttributeSource>;
}

export interface Transfer {
  id: string;
  name: string;
  direction: "upload" | "download";
  loaded: number;
  /** 0 when unknown. */
  total: number;
  done: boolean;
}

/** The chat's link to the contact centre: first connecting, then connected, or reconnecting after a loss. */
export type Connection = "connecting" | "connected" | "reconnecting";

/**
 * A message the advisor wrote that is not stored yet: sending (the chat client retries it
 * until stored), or failed for good (shown "Not sent", with Retry under the same ClientToken).
 */
export interface Outgoing {
  clientToken: string;
  content: string;
  state: "sending" | "failed";
}

export interface ChatState {
  info: ChatInfo;
  /** Transcript items, each once (keyed by Id), in time order. */
  items: Item[];
  /** Older pages of the transcript remain to be loaded (issue 61). */
  older: boolean;
  /** The page before the oldest item is being read. */
  loadingOlder: boolean;
  unread: number;
  customerTyping: boolean;
  /** Receipts of the advisor's own messages, by message id; read supersedes delivered. */
  receipts: Record<string, ReceiptMark>;
  ended: boolean;
  /** The advisor handed this chat on (transfer.succeeded from their own participant): ended for them. */
  handedOn: boolean;
  connection: Connection;
  /** The advisor's messages not stored yet, in the order written. */
  outgoing: Outgoing[];
  error: string | null;
  transfers: Transfer[];
}

export const newChatState = (info: ChatInfo): ChatState => ({
  info,
  items: [],
  older: false,
  loadingOlder: false,
  unread: 0,
  customerTyping: false,
  receipts: {},
  ended: false,
  handedOn: false,
  connection: "connecting",
  outgoing: [],
  error: null,
  transfers: [],
});

/** Items the transcript shows: messages, attachments and conversation events (no typing, no receipts). */
export function isTranscriptItem(item: Item): boolean {
  if (item.Type === ItemType.MESSAGE_METADATA || item.Type === "MESSAGE_METADATA") return false;
  if (item.ContentType === ContentType.TYPING) return false;
  if (
    item.ContentType === ContentType.READ_RECEIPT ||
    item.ContentType === ContentType.DELIVERED_RECEIPT
  )
    return false;
  if (item.ContentType === ContentType.CONNECTION_ACKNOWLEDGED) return false;
  return true;
}

/** Messages and attachments from the customer or the bot count as unread until the advisor looks. */
export function countsAsUnread(item: Item, ownParticipantId: string): boolean {
  if (item.ParticipantId === ownParticipantId || item.ParticipantRole === ParticipantRole.AGENT)
    return false;
  return item.Type === ItemType.MESSAGE || item.Type === ItemType.ATTACHMENT;
}

const BOT_NAME = "BOT";
const isText = (item: Item): boolean =>
  item.ContentType === ContentType.TEXT_PLAIN || item.ContentType === ContentType.TEXT_MARKDOWN;

/**
 * The widget sends a bot's plain or markdown message back as a customer message (docs/product.md §4);
 * that echo is protocol traffic, not conversation (docs/decisions.md #4), so the console hides it too:
 * a customer message equal to the latest bot text before it, with no customer message between.
 */
export function isBotEcho(item: Item, before: readonly Item[]): boolean {
  if (item.ParticipantRole !== ParticipantRole.CUSTOMER || item.Type !== ItemType.MESSAGE)
    return false;
  for (let i = before.length - 1; i >= 0; i--) {
    const prior = before[i]!;
    if (prior.Type !== ItemType.MESSAGE) continue;
    if (prior.ParticipantRole === ParticipantRole.CUSTOMER) return false;
    if (
      prior.ParticipantRole === ParticipantRole.SYSTEM &&
      prior.DisplayName === BOT_NAME &&
      isText(prior)
    ) {
      return prior.Content === item.Content;
    }
  }
  return false;
}

/**
 * The items the transcript shows, bot echoes left out: isBotEcho for each, in one pass (a
 * transcript of thousands of items, issue 61).
 */
export function conversation(items: readonly Item[]): Item[] {
  /** The latest bot text since the last customer message. */
  let botText: string | null = null;
  return items.filter((item) => {
    if (item.Type !== ItemType.MESSAGE) return true;
    if (item.ParticipantRole === ParticipantRole.CUSTOMER) {
      const echo = botText !== null && item.Content === botText;
      botText = null;
      return !echo;
    }
    if (
      item.ParticipantRole === ParticipantRole.SYSTEM &&
      item.DisplayName === BOT_NAME &&
      isText(item)
    )
      botText = item.Content ?? null;
    return true;
  });
}

const byTime = (a: Item, b: Item): number =>
  a.AbsoluteTime < b.AbsoluteTime ? -1 : a.AbsoluteTime > b.AbsoluteTime ? 1 : 0;

/**
 * Add items to a chat: each item once by Id (however many paths deliver it), kept in time
 * order; unread counts grow only for new live messages of a chat not in view (history loaded
 * when the chat opens never counts); a customer message clears the typing indicator;
 * chat.ended ends the chat, and so does the advisor's own transfer.succeeded (handed on).
 */
export function withItems(
  chat: ChatState,
  incoming: Item[],
  inView: boolean,
  live = true,
): ChatState {
  const known = new Set(chat.items.map((i) => i.Id));
  const added: Item[] = [];
  let ended = chat.ended;
  let handedOn = chat.handedOn;
  let typing = chat.customerTyping;
  for (const item of incoming) {
    if (item.ContentType === ContentType.CHAT_ENDED) ended = true;
    if (
      item.ContentType === ContentType.TRANSFER_SUCCEEDED &&
      item.ParticipantId === chat.info.ParticipantId
    )
      ended = handedOn = true;
    if (!isTranscriptItem(item)) continue;
    // The synthetic chat-ended item has no Id: it is shown once.
    const id = item.Id || `${item.ContentType ?? "item"}:synthetic`;
    if (known.has(id)) continue;
    known.add(id);
    added.push(item.Id ? item : { ...item, Id: id });
    if (item.ParticipantRole === ParticipantRole.CUSTOMER && item.Type === ItemType.MESSAGE)
      typing = false;
  }
  if (added.length === 0 && ended === chat.ended) return chat;
  const items = [...chat.items, ...added].sort(byTime);
  const unread = inView
    ? 0
    : !live
      ? chat.unread
      : chat.unread +
        added.filter(
          (i) =>
            countsAsUnread(i, chat.info.ParticipantId) &&
            !isBotEcho(i, items.slice(0, items.indexOf(i))),
        ).length;
  return { ...chat, items, unread, ended, handedOn, customerTyping: ended ? false : typing };
}

/** A receipt for one of the advisor's own messages in this chat; others' are ignored. */
export function withReceipt(chat: ChatState, messageId: string, mark: ReceiptMark): ChatState {
  const own = chat.items.some(
    (i) => i.Id === messageId && i.ParticipantId === chat.info.ParticipantId,
  );
  if (!own) return chat;
  const current = chat.receipts[messageId];
  if (current === mark || current === "read") return chat;
  return { ...chat, receipts: { ...chat.receipts, [messageId]: mark } };
}

/** The link came up or went down; a loss after it was up is "reconnecting". */
export function withConnection(chat: ChatState, up: boolean): ChatState {
  const connection: Connection = up
    ? "connected"
    : chat.connection === "connecting"
      ? "connecting"
      : "reconnecting";
  return connection === chat.connection ? chat : { ...chat, connection };
}

/** Add an outgoing message, or change the state of the one with its ClientToken. */
export function withOutgoing(chat: ChatState, message: Outgoing): ChatState {
  const at = chat.outgoing.findIndex((o) => o.clientToken === message.clientToken);
  const outgoing = at === -1 ? [...chat.outgoing, message] : chat.outgoing.with(at, message);
  return { ...chat, outgoing };
}

/** The message was stored: it leaves the outgoing list (its item is in the transcript). */
export function withoutOutgoing(chat: ChatState, clientToken: string): ChatState {
  const outgoing = chat.outgoing.filter((o) => o.clientToken !== clientToken);
  return outgoing.length === chat.outgoing.length ? chat : { ...chat, outgoing };
}

export function withTransfer(chat: ChatState, transfer: Transfer): ChatState {
  const others = chat.transfers.filter((t) => t.id !== transfer.id);
  return { ...chat, transfers: [...others, transfer] };
}
