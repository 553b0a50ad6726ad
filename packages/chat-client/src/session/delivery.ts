/**
 * Nothing lost, nothing twice. Every item reaches the session's events once, keyed by its Id,
 * whichever path brings it (websocket, transcript, own sends). After every (re)connection
 * the transcript is read forward from the last item delivered and the missed items are
 * delivered in order; live items arriving meanwhile wait behind them.
 */
import {
  ContentType,
  ItemType,
  type GetTranscriptRequest,
  type GetTranscriptResponse,
  type Item,
} from "@chat-widget/protocol";
import type { Logger } from "../env.js";
import { MessageStitcher, isStreamChunk } from "./message-stitching.js";

/** Page size of a repair read, and how many pages one repair reads at most. */
export const REPAIR_PAGE_SIZE = 100;
export const REPAIR_MAX_PAGES = 20;

interface Cursor {
  id: string;
  time: number;
}

/** Items that a transcript holds (typing and receipt metadata are not kept there). */
const isTranscriptItem = (item: Item): boolean =>
  item.Id !== "" &&
  item.ContentType !== ContentType.TYPING &&
  item.Type !== ItemType.MESSAGE_METADATA &&
  item.Type !== "MESSAGE_METADATA";

export class Delivery {
  private readonly seen = new Set<string>();
  private readonly stitcher = new MessageStitcher();
  private cursor: Cursor | null = null;
  private repairing = false;
  private repairAgain = false;
  private queue: Item[] = [];

  constructor(
    private readonly deliver: (item: Item) => void,
    private readonly fetchPage: (request: GetTranscriptRequest) => Promise<GetTranscriptResponse>,
    private readonly logger: Logger,
  ) {}

  /** A live item (websocket or own send). */
  accept(item: Item): void {
    if (this.repairing) this.queue.push(item);
    else this.process(item);
  }

  /** Items the application received through `getTranscript`: known from now on, not delivered. */
  markKnown(items: readonly Item[]): void {
    for (const item of items) {
      if (isStreamChunk(item) && !item.MessageMetadata?.MessageCompleted) continue;
      if (item.Id) this.seen.add(item.Id);
      this.advance(item);
    }
  }

  lastDelivered(): string | null {
    return this.cursor?.id ?? null;
  }

  /** Read the transcript from the last delivered item and deliver what was missed, in order. */
  async repair(): Promise<void> {
    if (this.repairing) {
      this.repairAgain = true;
      return;
    }
    this.repairing = true;
    try {
      do {
        this.repairAgain = false;
        await this.readMissed();
      } while (this.repairAgain);
    } finally {
      this.repairing = false;
      const queued = this.queue;
      this.queue = [];
      queued.forEach((item) => this.process(item));
    }
  }

  private async readMissed(): Promise<void> {
    const start = this.cursor;
    let nextToken: string | undefined;
    for (let page = 0; page < REPAIR_MAX_PAGES; page++) {
      const request: GetTranscriptRequest = start
        ? {
            MaxResults: REPAIR_PAGE_SIZE,
            ScanDirection: "FORWARD",
            SortOrder: "ASCENDING",
            StartPosition: { Id: start.id },
          }
        : {
            MaxResults: REPAIR_PAGE_SIZE,
            ScanDirection: "BACKWARD",
            SortOrder: "ASCENDING",
            StartPosition: {},
          };
      if (nextToken) request.NextToken = nextToken;
      let response: GetTranscriptResponse;
      try {
        response = await this.fetchPage(request);
      } catch (error) {
        this.logger.warn("Could not read missed items from the transcript", error);
        return;
      }
      const items = [...(response.Transcript ?? [])].sort((a, b) => time(a) - time(b));
      items.forEach((item) => this.process(item));
      // A backward read from the newest item covers the missed window in one page.
      if (!start || !response.NextToken) return;
      nextToken = response.NextToken;
    }
  }

  private process(raw: Item): void {
    const item = this.stitcher.accept(raw);
    if (!item) return;
    const chunk = isStreamChunk(item) && !item.MessageMetadata?.MessageCompleted;
    if (item.Id) {
      if (this.seen.has(item.Id)) return;
      if (!chunk) this.seen.add(item.Id);
    }
    if (!chunk) this.advance(item);
    this.deliver(item);
  }

  private advance(item: Item): void {
    if (!isTranscriptItem(item)) return;
    const t = time(item);
    if (!this.cursor || t >= this.cursor.time) this.cursor = { id: item.Id, time: t };
  }
}

function time(item: Item): number {
  const t = Date.parse(item.AbsoluteTime);
  return Number.isNaN(t) ? 0 : t;
}
