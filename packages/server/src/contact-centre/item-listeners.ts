import type { Item } from "@chat-widget/protocol";
import type { Contact } from "./types.js";

/** A listener that has nothing to do returns nothing: it is not awaited. */
export type ItemListener = (contact: Contact, item: Item) => void | Promise<void>;

/**
 * The onItemCommitted listeners. They see a contact's items in commit order, one at a
 * time, without delaying the caller that committed them; contacts do not wait for each other.
 */
export class ItemListeners {
  private readonly listeners = new Set<ItemListener>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  add(listener: ItemListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  notify(contact: Contact, items: Item[]): void {
    if (items.length === 0 || this.listeners.size === 0) return;
    const id = contact.contactId;
    const run = async (): Promise<void> => {
      for (const item of items) {
        for (const listener of [...this.listeners]) {
          try {
            const running = listener(contact, item);
            if (running) await running;
          } catch (error) {
            this.onError(error);
          }
        }
      }
      // The chain's last link ends it (a later one, chained behind, ends it itself).
      if (this.chains.get(id) === next) this.chains.delete(id);
    };
    const next = (this.chains.get(id) ?? Promise.resolve()).then(run);
    this.chains.set(id, next);
  }

  /** Resolves when every listener call scheduled so far has finished. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }
}
