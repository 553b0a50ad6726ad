import { ContentType, type Item } from "@chat-widget/protocol";
import type { FanOut } from "../fanout/fanout.js";
import { CENTRE_CHANNEL, type CentreMessage } from "./channel.js";
import { ItemListeners } from "./item-listeners.js";
import type { Contact } from "./types.js";

/**
 * What the contact centre tells once a change is committed: every process's sockets (the
 * fan-out, each stored item with its seq) and this process's item listeners.
 */
export class CentreEmitter {
  readonly listeners: ItemListeners;

  constructor(
    private readonly fanout: FanOut,
    private readonly onError: (error: unknown) => void,
  ) {
    this.listeners = new ItemListeners(onError);
  }

  /**
   * Publish `republish` (see MutationResult) and `items` (stored after `lastSeq`), then `close`;
   * listeners get `items`.
   */
  async emit(
    contact: Contact,
    items: Item[],
    lastSeq: number,
    close: CentreMessage[],
    republish: Item[] = [],
  ): Promise<void> {
    const { contactId } = contact;
    for (const item of republish) await this.publish({ kind: "item", contactId, item });
    for (const [i, item] of items.entries()) {
      await this.publish({ kind: "item", contactId, item, seq: lastSeq + i + 1 });
    }
    for (const message of close) await this.publish(message);
    if (items.length === 0) return;
    const ended = items.some((i) => i.ContentType === ContentType.CHAT_ENDED);
    const seen: Contact = ended ? { ...contact, status: "ended" } : contact;
    this.listeners.notify(seen, items);
  }

  /** Fans out what is not stored (typing, streamed chunks) or a close. */
  async publish(message: CentreMessage): Promise<void> {
    try {
      await this.fanout.publish(CENTRE_CHANNEL, message);
    } catch (error) {
      // The item is committed; each process's sockets read what the fan-out lost (ContactFeed).
      this.onError(error);
    }
  }
}
