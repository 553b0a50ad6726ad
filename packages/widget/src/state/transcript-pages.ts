/**
 * The transcript's history from getTranscript: restored after a reload (its newest page, older
 * ones as the visitor scrolls up, issue 61) and repaired after a reconnect (back to an item the
 * widget has). Loads run one after another, so a restore is never overtaken by a repair.
 */
import type { Item } from "@chat-widget/protocol";
import type { ChatConnection } from "../chat/adapter.js";
import type { Logger } from "../logger.js";
import {
  TRANSCRIPT_MAX_PAGES,
  TRANSCRIPT_PAGE_SIZE,
  TRANSCRIPT_PREFETCH_MS,
  TRANSCRIPT_RESTORE_PAGES,
} from "./constants.js";
import type { ItemLedger } from "./ledger.js";
import type { Store } from "./store.js";
import type { Timers } from "./timers.js";

export interface TranscriptPagesDeps {
  /** The chat's connection now (null once closed): a page for another is dropped. */
  connection: () => ChatConnection | null;
  /** An item of a restored or repaired page, handled as any other (once, live or history). */
  receive: (item: Item) => void;
  ledger: ItemLedger;
  store: Store;
  logger: Logger;
  timers: Timers;
}

/** A page read from the newest backwards: oldest first, with the token of the one before it. */
interface Pages {
  items: Item[];
  nextToken: string | undefined;
}

/** One page of the service's maximum, read from the newest backwards (after `nextToken`). */
const readPage = (connection: ChatConnection, nextToken: string | undefined) =>
  connection.getTranscript({
    maxResults: TRANSCRIPT_PAGE_SIZE,
    scanDirection: "BACKWARD",
    sortOrder: "ASCENDING",
    ...(nextToken ? { nextToken } : {}),
  });

/** Up to `pages` pages, newest first, stopping at a page with an item `seen` (a gap closed). */
async function readBack(
  connection: ChatConnection,
  pages: number,
  seen: (item: Item) => boolean,
): Promise<Pages> {
  const items: Item[] = [];
  let nextToken: string | undefined;
  for (let page = 0; page < pages; page++) {
    const result = await readPage(connection, nextToken);
    items.unshift(...result.Transcript);
    nextToken = result.NextToken;
    if (!nextToken || result.Transcript.some(seen)) break;
  }
  return { items, nextToken };
}

/** The token of the page older than those shown, and its read while one is under way. */
interface Older {
  token: string | undefined;
  loading: Promise<void> | null;
}

export class TranscriptPages {
  private loads: Promise<void> = Promise.resolve();
  private older: Older = { token: undefined, loading: null };

  constructor(private readonly deps: TranscriptPagesDeps) {}

  /** Restore (its newest page) or repair the transcript, after any load already under way. */
  load(restore: boolean): Promise<void> {
    this.loads = this.loads.then(() => this.apply(restore));
    return this.loads;
  }

  private async apply(restore: boolean): Promise<void> {
    const { deps } = this;
    const connection = deps.connection();
    if (!connection) return;
    let pages: Pages;
    try {
      pages = restore
        ? await readBack(connection, TRANSCRIPT_RESTORE_PAGES, () => false)
        : await readBack(connection, TRANSCRIPT_MAX_PAGES, (item) => deps.ledger.has(item.Id));
    } catch (error) {
      deps.logger.warn("getTranscript failed", error);
      return;
    }
    if (connection !== deps.connection()) return;
    for (const item of pages.items) deps.receive(item);
    if (!restore) return;
    const older = (this.older = { token: pages.nextToken, loading: null });
    deps.store.dispatch({ type: "olderReceived", items: [], more: !!pages.nextToken });
    if (older.token)
      deps.timers.setTimeout(() => void this.prefetch(older), TRANSCRIPT_PREFETCH_MS);
  }

  /**
   * The pages before the restored one, up to TRANSCRIPT_MAX_PAGES in all, read in the background
   * once the newest shows: "Download transcript" after the chat ends (when nothing can be read
   * any more) holds them, as it did when a restore read them all at once.
   */
  private async prefetch(older: Older): Promise<void> {
    for (let page = 1; page < TRANSCRIPT_MAX_PAGES && older === this.older; page++) {
      const token = older.token;
      await this.loadOlder();
      if (!older.token || older.token === token) return; // the oldest, or the read failed
    }
  }

  /** The visitor reached the oldest entry shown: the page before it, once (while it loads, that read). */
  loadOlder(): Promise<void> {
    const { deps, older } = this;
    const connection = deps.connection();
    if (!connection || !older.token) return Promise.resolve();
    older.loading ??= this.readOlder(connection, older).finally(() => (older.loading = null));
    return older.loading;
  }

  private async readOlder(connection: ChatConnection, older: Older): Promise<void> {
    const { deps } = this;
    try {
      const result = await readPage(connection, older.token);
      if (older !== this.older || connection !== deps.connection()) return;
      older.token = result.NextToken;
      // History: handled before, so no receipt, echo or unread count (ledger: not live).
      const items = result.Transcript.filter((item) => deps.ledger.admit(item));
      deps.store.dispatch({ type: "olderReceived", items, more: !!result.NextToken });
    } catch (error) {
      deps.logger.warn("getTranscript failed", error);
    }
  }
}
