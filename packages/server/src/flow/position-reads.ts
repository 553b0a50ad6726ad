import { setNewest } from "../http/newest-first-map.js";
import type { Db } from "../store/db.js";
import { findPositions, type StoredPosition } from "./positions-repo.js";

/** The most contacts remembered as no longer listening; the oldest is forgotten first. */
export const MAX_NOT_LISTENING = 50_000;

/**
 * Whether the flow will never act on this contact's customer messages again: it waits in no
 * state and has nothing left to perform. Nothing makes such a position listen again: only a
 * customer's message to a waiting state, or a bot handing over in one, takes the flow on; a
 * bot's line still to be echoed back would only be struck off its list. So this holds in every
 * process once it held.
 */
export function listensNoMore(position: StoredPosition): boolean {
  return position.waitingIn === null && position.pendingEffects.length === 0;
}

interface Waiter {
  resolve: (position: StoredPosition | null) => void;
  reject: (error: unknown) => void;
}

/**
 * findPosition for many contacts at once: the reads asked within one turn of the event loop
 * go out as one statement once it ends. Every customer message asks for its contact's
 * position; the messages a group commit stored together are heard together, and read together.
 * A contact whose position was read as no longer listening (a chat handed to an advisor) is
 * remembered and not read again: its customer's messages cost the store nothing more.
 */
export class PositionReads {
  private waiting = new Map<string, Waiter[]>();
  /** Contacts whose flow listens no more (bounded; a forgotten one is read again). */
  private readonly notListening = new Map<string, true>();

  constructor(private readonly db: Db) {}

  /** Whether `contactId`'s position was read as no longer listening (see listensNoMore). */
  listensNoMore(contactId: string): boolean {
    return this.notListening.has(contactId);
  }

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
        if (position && listensNoMore(position)) {
          setNewest(this.notListening, contactId, true, MAX_NOT_LISTENING);
        }
        // Each its own copy: a reader may change what it got.
        waiters.forEach((w, i) => w.resolve(i === 0 ? position : structuredClone(position)));
      }
    } catch (error) {
      for (const waiters of asked.values()) for (const w of waiters) w.reject(error);
    }
  }
}
