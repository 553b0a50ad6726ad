/**
 * Read receipts, as a commercial widget sends them: an advisor's message is read once the
 * visitor can see it (on arrival while the window is open, or when the window is reopened
 * after Minimise), once per message. A read receipt waits for the message's delivered receipt
 * to have gone out, so that the client does not let the read supersede it: every incoming
 * MESSAGE keeps its delivered receipt (docs/product.md §5).
 */
export type SendRead = (messageId: string, afterDelivered: Promise<void>) => void;

export class ReadReceipts {
  private readonly read = new Set<string>();
  private unread: string[] = [];
  private readonly deliveries = new Map<string, Promise<void>>();

  constructor(private readonly send: SendRead) {}

  /** A message from a non-customer arrived; `delivery` settles when its delivered receipt has. */
  arrived(messageId: string, delivery: Promise<void>, visible: boolean): void {
    this.deliveries.set(messageId, delivery);
    if (visible) this.markRead(messageId);
    else this.unread.push(messageId);
  }

  /** The window is visible again: what arrived meanwhile is read now. */
  shown(): void {
    for (const messageId of this.unread.splice(0)) this.markRead(messageId);
  }

  clear(): void {
    this.read.clear();
    this.unread = [];
    this.deliveries.clear();
  }

  private markRead(messageId: string): void {
    if (this.read.has(messageId)) return;
    this.read.add(messageId);
    const delivery = this.deliveries.get(messageId) ?? Promise.resolve();
    this.deliveries.delete(messageId);
    this.send(messageId, delivery);
  }
}
