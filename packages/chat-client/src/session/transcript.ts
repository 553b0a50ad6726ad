/**
 * The session's own transcript, as chatjs 5 keeps it for `onTranscriptUpdated` (docs/product.md
 * §4): every item the session received, sent or read, once per Id and in time order, a message
 * with its delivery status. Kept only once something subscribes to `transcriptUpdated`.
 *
 * Unlike chatjs 5.0.0: typing is not kept (the service's transcript holds none), an older page
 * is merged in time order (chatjs reverses it), a read message never goes back to delivered,
 * and an item that replaces another keeps its status.
 */
import {
  ContentType,
  ItemType,
  type GetTranscriptResponse,
  type Item,
} from "@chat-widget/protocol";

/** How the service is processing a sent message (chatjs 5's `MessageProcessingStatus`). */
export type MessageProcessingStatus = NonNullable<
  NonNullable<Item["MessageMetadata"]>["MessageProcessingStatus"]
>;

/** Where a message of the transcript stands; a sent message starts as SENDING. */
export type MessageStatus = "SENDING" | "SENT" | "DELIVERED" | "READ" | "FAILED";

/** A transcript item; items that arrived also carry their JSON as `serializedContent`. */
export interface TranscriptItem extends Omit<Item, "MessageMetadata"> {
  MessageMetadata?: Partial<NonNullable<Item["MessageMetadata"]>> & { Status?: MessageStatus };
  serializedContent?: string;
}

/** The data of a `transcriptUpdated` event. */
export interface TranscriptUpdate {
  transcript: TranscriptItem[];
  /** The NextToken of the last backward read: where older history continues, if anywhere. */
  previousTranscriptNextToken: string | null;
}

/** Pending items (no time yet) sort last; ISO times of one service compare as strings. */
const order = (item: TranscriptItem) => item.AbsoluteTime || "~";

export class Transcript {
  #items: TranscriptItem[] = [];
  #previousToken: string | null = null;
  /** The session's own role ("CUSTOMER" or "AGENT"): whose messages it sends. */
  readonly #role: string;
  constructor(role: string) {
    this.#role = role;
  }

  /** The transcript as the event hands it out: a copy, so a subscriber may keep it. */
  get update(): TranscriptUpdate {
    return { transcript: [...this.#items], previousTranscriptNextToken: this.#previousToken };
  }

  /** A message being sent: shown at once as SENDING under a temporary Id. */
  sending(id: string, content: string, contentType: string): void {
    this.#put({
      Id: id,
      Type: ItemType.MESSAGE,
      Content: content,
      ContentType: contentType,
      ParticipantRole: this.#role,
      AbsoluteTime: "",
      MessageMetadata: { MessageId: id, Status: "SENDING" },
    });
  }

  /** The send was stored as `stored.Id`: SENT, in place of its echo if that arrived first. */
  sent(tempId: string, stored: Pick<Item, "Id" | "AbsoluteTime" | "MessageMetadata">): void {
    const at = this.#find(tempId);
    const item = this.#items[at];
    if (!item) return;
    this.#items.splice(at, 1);
    const echo = this.#items[this.#find(stored.Id)];
    const base = echo ?? { ...item, AbsoluteTime: stored.AbsoluteTime };
    this.#put({
      ...base,
      Id: stored.Id,
      MessageMetadata: {
        ...stored.MessageMetadata,
        ...base.MessageMetadata,
        MessageId: stored.Id,
        Status: echo?.MessageMetadata?.Status ?? "SENT",
      },
    });
  }

  /** The send failed for good. */
  failed(tempId: string, now: string): void {
    const item = this.#items[this.#find(tempId)];
    if (item)
      this.#put({
        ...item,
        AbsoluteTime: now,
        MessageMetadata: { ...item.MessageMetadata, Status: "FAILED" },
      });
  }

  /** An item from the stream or a transcript read; receipts update their message's status. */
  received(item: Item, ownParticipantId: string): boolean {
    if (!item.Id || item.ContentType === ContentType.TYPING) return false;
    if (item.Type !== ItemType.MESSAGE_METADATA && item.Type !== "MESSAGE_METADATA") {
      this.#put({ ...item, serializedContent: JSON.stringify(item) });
      return true;
    }
    const receipt = item.MessageMetadata?.Receipts?.[0];
    const at = this.#find(item.MessageMetadata?.MessageId ?? "");
    const message = this.#items[at];
    if (!receipt || receipt.RecipientParticipantId === ownParticipantId || !message) return false;
    const status = receipt.ReadTimestamp ? "READ" : receipt.DeliveredTimestamp && "DELIVERED";
    if (!status || message.MessageMetadata?.Status === "READ") return false;
    this.#items[at] = {
      ...message,
      MessageMetadata: { ...message.MessageMetadata, Status: status },
    };
    return true;
  }

  /** A page the application read; a backward read tells where older history continues. */
  page(page: GetTranscriptResponse, backward: boolean, ownParticipantId: string): void {
    for (const item of page.Transcript ?? []) this.received(item, ownParticipantId);
    if (backward) this.#previousToken = page.NextToken ?? null;
  }

  #find(id: string): number {
    return this.#items.findIndex((item) => item.Id === id);
  }

  /** Adds or replaces the item with its Id, in time order; a replaced item keeps its status. */
  #put(item: TranscriptItem): void {
    const at = this.#find(item.Id);
    const status = at < 0 ? undefined : this.#items.splice(at, 1)[0]!.MessageMetadata?.Status;
    if (status && !item.MessageMetadata?.Status)
      item = { ...item, MessageMetadata: { ...item.MessageMetadata, Status: status } };
    let i = this.#items.length;
    while (i > 0 && order(this.#items[i - 1]!) > order(item)) i--;
    this.#items.splice(i, 0, item);
  }
}
