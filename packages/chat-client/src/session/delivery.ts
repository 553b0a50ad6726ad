/**
 * Nothing lost, nothing twice (issue 9, "Receiving"). Items reach the session's events once,
 * keyed by Id, in the order of the server's stream. The stream position is the last transcript
 * item received from the server — over the websocket or read back from the transcript — never
 * an answer to an own send. Each time the `aws/chat` subscription is confirmed, the transcript
 * is read forward from that position to its last page, and live items arriving meanwhile wait
 * behind it. A read that fails for a transient reason (no answer, 429, 5xx) is tried again on
 * the client's backoff (1 s doubling to 30 s, ±30 %) with the live items still held, so a
 * failed read never lets them overtake the gap.
 */
import {
  ContentType,
  ItemType,
  type GetTranscriptRequest,
  type GetTranscriptResponse,
  type Item,
} from "@chat-widget/protocol";
import { BackoffRetry } from "../core/backoff.js";
import { isFinalError } from "../core/errors.js";
import type { ClientEnv, Logger } from "../env.js";
import { MessageStitcher, isStreamChunk } from "./message-stitching.js";

/** Page size of a repair read. */
export const REPAIR_PAGE_SIZE = 100;

interface Cursor {
  id: string;
  time: number;
}

/**
 * live: items are delivered as they come; repairing: a transcript read is under way;
 * waiting: a read failed and is tried again after a delay; stopped: the session is over.
 * Items arriving while repairing or waiting are held, in order.
 */
type DeliveryPhase = "live" | "repairing" | "waiting" | "stopped";

type ReadOutcome = "done" | "retry" | "final";

export interface DeliveryOptions {
  deliver: (item: Item) => void;
  fetchPage: (request: GetTranscriptRequest) => Promise<GetTranscriptResponse>;
  env: Pick<ClientEnv, "setTimeout" | "clearTimeout" | "random">;
  logger: Logger;
}

/** Items that a transcript holds (typing and receipt metadata are not kept there). */
const isTranscriptItem = (item: Item): boolean =>
  item.Id !== "" &&
  item.ContentType !== ContentType.TYPING &&
  item.Type !== ItemType.MESSAGE_METADATA &&
  item.Type !== "MESSAGE_METADATA";

export class Delivery {
  readonly #seen = new Set<string>();
  readonly #stitcher = new MessageStitcher();
  #cursor: Cursor | null = null;
  #phase: DeliveryPhase = "live";
  /** Another subscription was confirmed during a read: read once more when it ends. */
  #readAgain = false;
  #held: Item[] = [];
  readonly #retry: BackoffRetry;

  readonly #o: DeliveryOptions;
  constructor(o: DeliveryOptions) {
    this.#o = o;
    this.#retry = new BackoffRetry(o.env);
  }

  /** An item from the server's stream (the websocket). */
  receive(item: Item): void {
    if (this.#phase === "live") this.#process(item);
    else if (this.#phase !== "stopped") this.#held.push(item);
  }

  /**
   * Items the application read itself with `getTranscript`: never handed to `onMessage`
   * again. They do not move the stream position (an application may read any window).
   */
  markKnown(items: readonly Item[]): void {
    for (const item of items) {
      if (isStreamChunk(item) && !item.MessageMetadata?.MessageCompleted) continue;
      if (item.Id) this.#seen.add(item.Id);
    }
  }

  /** Read what the stream missed, from the stream position to the transcript's last page. */
  async repair(): Promise<void> {
    if (this.#phase === "stopped") return;
    if (this.#phase === "repairing") {
      this.#readAgain = true;
      return;
    }
    this.#retry.cancel();
    this.#phase = "repairing";
    let outcome: ReadOutcome;
    do {
      this.#readAgain = false;
      outcome = await this.#readMissed();
    } while (outcome === "done" && this.#readAgain && this.#phase === "repairing");
    if (this.#phase !== "repairing") return;
    if (outcome === "retry") {
      this.#phase = "waiting";
      const delay = this.#retry.schedule(() => void this.repair());
      this.#o.logger.warn(`Transcript retry in ${delay} ms`);
      return;
    }
    this.#retry.succeeded();
    this.#phase = "live";
    const held = this.#held;
    this.#held = [];
    for (const item of held) {
      if (this.#phase !== "live") break;
      this.#process(item);
    }
  }

  /** The session is over: nothing more is read or delivered. */
  stop(): void {
    this.#phase = "stopped";
    this.#retry.cancel();
    this.#held = [];
  }

  async #readMissed(): Promise<ReadOutcome> {
    const start = this.#cursor;
    let nextToken: string | undefined;
    for (;;) {
      let response: GetTranscriptResponse;
      try {
        response = await this.#o.fetchPage(transcriptPage(start, nextToken));
      } catch (error) {
        if (!isFinalError(error)) return "retry";
        this.#o.logger.error("Transcript read failed", error);
        return "final";
      }
      if (this.#phase !== "repairing") return "final";
      const items = [...(response.Transcript ?? [])].sort((a, b) => time(a) - time(b));
      items.forEach((item) => this.#process(item));
      // With no position yet, the newest page is what the stream could have missed.
      if (!start || !response.NextToken) return "done";
      nextToken = response.NextToken;
    }
  }

  #process(raw: Item): void {
    if (this.#phase === "stopped") return;
    const item = this.#stitcher.accept(raw);
    if (!item) return;
    const chunk = isStreamChunk(item) && !item.MessageMetadata?.MessageCompleted;
    // Every stream item moves the position, also one the application already knows.
    if (!chunk) this.#advance(item);
    if (item.Id) {
      if (this.#seen.has(item.Id)) return;
      if (!chunk) this.#seen.add(item.Id);
    }
    this.#o.deliver(item);
  }

  #advance(item: Item): void {
    if (!isTranscriptItem(item)) return;
    const t = time(item);
    if (!this.#cursor || t >= this.#cursor.time) this.#cursor = { id: item.Id, time: t };
  }
}

function transcriptPage(start: Cursor | null, nextToken?: string): GetTranscriptRequest {
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
  return request;
}

function time(item: Item): number {
  const t = Date.parse(item.AbsoluteTime);
  return Number.isNaN(t) ? 0 : t;
}
