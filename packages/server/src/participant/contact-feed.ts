import type { Item } from "@chat-widget/protocol";

/** An item with its place in its contact's stored order (items.seq). */
export interface SequencedItem {
  seq: number;
  item: Item;
}

/** What a feed reads from the store. */
export interface FeedReads {
  /** The contact's items after `after`, oldest first, at most `limit`. */
  itemsAfter(contactId: string, after: number, limit: number): Promise<SequencedItem[]>;
}

/**
 * How long an item that arrived ahead of its turn waits for the ones before it to arrive live
 * (two processes' publishes of one chat can cross) before they are read from the store.
 */
export const REORDER_GRACE_MS = 100;
/** After a failed read of the store, the next try. */
export const FEED_RETRY_MS = 1_000;
/** Items one read of the store brings. */
export const FEED_PAGE = 200;
/** Items held ahead of their turn at most; more are left to the store (they are committed). */
export const MAX_HELD = 500;

export interface ContactFeedOptions {
  reads: FeedReads;
  /** Sends an item to the contact's sockets; `repaired` when it came from the store. */
  deliver: (item: Item, repaired: boolean) => void;
  onError: (error: unknown) => void;
}

/**
 * One contact's items as this process's sockets get them: each once, in the store's order,
 * whatever the fan-out loses, repeats or crosses. `high` is the last seq delivered, at first the
 * contact's last seq read before its first socket here opened (what came before, the socket's
 * client reads in its transcript); an item ahead of it waits, and a gap the fan-out does not
 * fill within REORDER_GRACE_MS, or any after `resync` (the fan-out was interrupted), is read
 * from the store.
 */
export class ContactFeed {
  private readonly held = new Map<number, Item>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A read of the store is under way (the baseline or a repair). */
  private reading = false;
  /** Another repair was asked for while one was reading. */
  private again = false;
  private closed = false;

  constructor(
    private readonly contactId: string,
    private high: number,
    private readonly o: ContactFeedOptions,
  ) {}

  /** An item the fan-out brought. */
  receive(seq: number, item: Item): void {
    if (this.closed || seq <= this.high) return;
    if (this.reading) {
      if (this.held.size < MAX_HELD) this.held.set(seq, item);
      return;
    }
    if (seq === this.high + 1) {
      this.send(seq, item, false);
      this.drain();
      return;
    }
    if (this.held.size < MAX_HELD) this.held.set(seq, item);
    this.armGap();
  }

  /** The fan-out was interrupted: anything after `high` may have been lost. */
  resync(): void {
    if (this.closed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    // A gap's grace or a failed read's retry: read now.
    this.disarm();
    void this.repair();
  }

  /** No socket of the contact is left on this process. */
  close(): void {
    this.closed = true;
    this.disarm();
    this.held.clear();
  }

  private send(seq: number, item: Item, repaired: boolean): void {
    this.high = seq;
    this.held.delete(seq);
    this.o.deliver(item, repaired);
  }

  private async repair(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      for (;;) {
        const rows = await this.o.reads.itemsAfter(this.contactId, this.high, FEED_PAGE);
        if (this.closed) return;
        for (const row of rows) if (row.seq > this.high) this.send(row.seq, row.item, true);
        if (rows.length < FEED_PAGE) break;
      }
    } catch (error) {
      this.reading = false;
      return this.retry(error, () => void this.repair());
    }
    this.reading = false;
    if (this.again) {
      this.again = false;
      return this.repair();
    }
    this.drain();
  }

  /** What waited and is now in turn goes; a gap left waits for its grace. */
  private drain(): void {
    for (let next = this.held.get(this.high + 1); next; next = this.held.get(this.high + 1)) {
      this.send(this.high + 1, next, false);
    }
    for (const seq of this.held.keys()) if (seq <= this.high) this.held.delete(seq);
    if (this.held.size > 0) this.armGap();
    else this.disarm();
  }

  private armGap(): void {
    if (this.timer || this.reading) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.repair();
    }, REORDER_GRACE_MS);
  }

  private retry(error: unknown, again: () => void): void {
    if (this.closed) return;
    this.o.onError(error);
    this.disarm();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      again();
    }, FEED_RETRY_MS);
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
