import type { CentreMessage } from "../contact-centre/channel.js";
import { setNewest } from "../http/newest-first-map.js";
import { startSweeper } from "../sweeper.js";
import type { Caller } from "./auth.js";

/** How long a cached caller is trusted without a word from the fan-out. */
export const CALLER_TTL_MS = 30_000;
/** The most callers kept; the one kept longest is dropped first. */
export const MAX_CALLERS = 50_000;
/** How often `set` drops the callers whose time is up (see dropExpired). */
export const DROP_EXPIRED_EVERY_MS = 1_000;

/**
 * The tokens whose callers are kept. Each answers only for its own kind: a websocket URL's
 * token never passes as a connection token (X-Amz-Bearer), nor the other way round.
 */
export type CachedToken = "participant" | "connection" | "websocket";

interface Entry {
  caller: Caller;
  /** When the entry stops being trusted: its token's expiry or CALLER_TTL_MS, the earlier. */
  until: number;
}

/**
 * The callers behind recently used connection tokens, and behind the participant tokens and
 * websocket URLs this process just gave (token hash → participant and contact), so that a
 * chat's set-up and requests do not read the store to authenticate. Only active callers are
 * kept, each until its token expires or CALLER_TTL_MS passed, and dropped once the fan-out
 * says its participant left or its chat ended (every process hears that, its own changes
 * included, before their requests are answered). Between a change in another process and its
 * word arriving, a request may still pass authentication: every change re-checks the sender
 * in its own transaction, so such a request is refused there all the same.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Contacts ended and participants gone, by when the word came, oldest first: kept for two
   * TTLs, so an entry read from the store just before the word is still refused.
   */
  private readonly gone = new Map<string, number>();
  /** When dropExpired last ran. */
  private droppedAt = -Infinity;

  constructor(private readonly maxCallers = MAX_CALLERS) {}

  get(kind: CachedToken, tokenHash: string, now: number): Caller | null {
    const key = `${kind} ${tokenHash}`;
    const entry = this.entries.get(key);
    if (!entry) return null;
    const { participant, contact } = entry.caller;
    this.forgetOldWords(now);
    if (
      entry.until <= now ||
      this.gone.has(contact.contactId) ||
      this.gone.has(participant.participantId)
    ) {
      this.entries.delete(key);
      return null;
    }
    // Not moved to the newest: the entries stay in the order they were set, which is the order
    // their time is up (see dropExpired). Moving one on every request (a delete and a set in a
    // map of tens of thousands) cost 2.8 % of the server's time at 2,000 msgs/s, much of it in
    // rehashes of the whole map that stopped the event loop.
    return entry.caller;
  }

  /** Keep an active caller of a token valid until `tokenExpiresAt` (ms). */
  set(
    kind: CachedToken,
    tokenHash: string,
    caller: Caller,
    tokenExpiresAt: number,
    now: number,
  ): void {
    if (caller.participant.leftAt || caller.contact.status !== "active") return;
    const until = Math.min(tokenExpiresAt, now + CALLER_TTL_MS);
    this.dropExpired(now);
    setNewest(this.entries, `${kind} ${tokenHash}`, { caller, until }, this.maxCallers);
  }

  /**
   * Drops the callers whose time is up from the front, at most once every
   * DROP_EXPIRED_EVERY_MS: each is kept CALLER_TTL_MS at most (less only if its token expires
   * sooner), so the oldest set are the first due. Without it a burst of chats that went quiet
   * stayed until pushed out by MAX_CALLERS newer ones.
   */
  private dropExpired(now: number): void {
    if (now - this.droppedAt < DROP_EXPIRED_EVERY_MS) return;
    this.droppedAt = now;
    for (const [key, entry] of this.entries) {
      if (entry.until > now) return;
      this.entries.delete(key);
    }
  }

  /**
   * Drops what is due every CALLER_TTL_MS (the timer does not keep the process alive) until the
   * returned stop is called: a server gone quiet after a burst of chats would otherwise keep
   * their callers (tens of MB after 20,000 chats) and words until its next request.
   */
  startSweeping(now: () => number): () => Promise<void> {
    return startSweeper(
      CALLER_TTL_MS,
      async () => {
        const at = now();
        this.dropExpired(at);
        this.forgetOldWords(at);
      },
      () => {},
    );
  }

  /** How many callers are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** How many words of contacts ended and participants gone are kept (tests). */
  get words(): number {
    return this.gone.size;
  }

  /**
   * The fan-out was interrupted: a word may have been lost, so every caller is read from the
   * store again (the words heard stay true).
   */
  clear(): void {
    this.entries.clear();
  }

  /** The fan-out's word (CENTRE_CHANNEL): a participant closed, or a whole contact. */
  hear(message: CentreMessage, now: number): void {
    if (message.kind !== "close") return;
    const id = message.participantId ?? message.contactId;
    this.gone.delete(id);
    this.gone.set(id, now);
    this.forgetOldWords(now);
  }

  private forgetOldWords(now: number): void {
    for (const [id, at] of this.gone) {
      if (at > now - 2 * CALLER_TTL_MS) return;
      this.gone.delete(id);
    }
  }
}
