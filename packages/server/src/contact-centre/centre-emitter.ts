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
    /** The seqs of stored items of a contact, by Id (to publish a repeat in its place). */
    private readonly seqsOf: (contactId: string, itemIds: string[]) => Promise<Map<string, number>>,
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
    if (republish.length > 0) await this.republish(contactId, republish);
    for (const [i, item] of items.entries()) {
      await this.publish({ kind: "item", contactId, item, seq: lastSeq + i + 1 });
    }
    for (const message of close) await this.publish(message);
    if (items.length === 0) return;
    const ended = items.some((i) => i.ContentType === ContentType.CHAT_ENDED);
    const seen: Contact = ended ? { ...contact, status: "ended" } : contact;
    this.listeners.notify(seen, items);
  }

  /**
   * Items an earlier try of a request committed, published again in their place (seq): a
   * socket that had them drops them (ContactFeed); one that missed them gets them, in order.
   * Without their seqs (the store did not answer), as items to deliver at once.
   */
  private async republish(contactId: string, items: Item[]): Promise<void> {
    const seqs = await this.seqsOf(
      contactId,
      items.map((i) => i.Id),
    ).catch((error: unknown) => {
      this.onError(error);
      return new Map<string, number>();
    });
    for (const item of items) {
      const seq = seqs.get(item.Id);
      await this.publish(
        seq === undefined
          ? { kind: "item", contactId, item }
          : { kind: "item", contactId, item, seq },
      );
    }
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
