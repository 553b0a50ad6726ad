import type { Db } from "../store/db.js";
import { findPositions, type StoredPosition } from "./positions-repo.js";

interface Waiter {
  resolve: (position: StoredPosition | null) => void;
  reject: (error: unknown) => void;
}

/**
 * findPosition for many contacts at once: the reads asked within one turn of the event loop
 * go out as one statement once it ends. Every customer message asks for its contact's
 * position; the messages a group commit stored together are heard together, and read together.
 */
export class PositionReads {
  private waiting = new Map<string, Waiter[]>();

  constructor(private readonly db: Db) {}

  find(contactId: string): Promise<StoredPosition | null> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => void this.read());
      const waiters = this.waiting.get(contactId) ?? [];
      waiters.push({ resolve, reject });
      this.waiting.set(contactId, waiters);
    });
  }

  private async read(): Promise<void> {
    const asked = this.waiting;
    this.waiting = new Map();
    try {
      const found = await findPositions(this.db, [...asked.keys()]);
      for (const [contactId, waiters] of asked) {
        const position = found.get(contactId) ?? null;
        // Each its own copy: a reader may change what it got.
        waiters.forEach((w, i) => w.resolve(i === 0 ? position : structuredClone(position)));
      }
    } catch (error) {
      for (const waiters of asked.values()) for (const w of waiters) w.reject(error);
    }
  }
}
