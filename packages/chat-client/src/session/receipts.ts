/**
 * Message receipts (docs/protocol.md §4.3): missing ids rejected; dedupe ("Event already fired");
 * delivered receipts wait 300 ms so a read can supersede them (one shared timer, only the
 * latest receipt handed in meanwhile is processed); read receipts skip that wait; then a
 * throttle window (5000 ms by default) after which only the most recent receipt is sent
 * (a delivered one together with the latest pending read).
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import type { ClientEnv, Logger, TimerHandle } from "../env.js";

export const RECEIPT_PRIORITISATION_DELAY_MS = 300;
export const EVENT_ALREADY_FIRED = "Event already fired";
export const MISSING_MESSAGE_ID = "Ignoring messageReceipt: missing messageId";
export const FAILED_TO_SEND_RECEIPT = "Failed to send messageReceipt";

export type ReceiptContentType =
  typeof ContentType.READ_RECEIPT | typeof ContentType.DELIVERED_RECEIPT;

export interface ReceiptRequest {
  contentType: ReceiptContentType;
  messageId: string;
  disableThrottle?: boolean;
}

/** Sends one receipt as a SendEvent; resolves with the request's result. */
export type ReceiptSender = (receipt: ReceiptRequest) => Promise<unknown>;

interface Deferred {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class MessageReceipts {
  readonly #readSet = new Set<string>();
  readonly #deliveredSet = new Set<string>();
  readonly #readPending = new Map<string, Deferred[]>();
  readonly #deliveredPending = new Map<string, Deferred[]>();
  #prioritiseTimer: TimerHandle | undefined;
  #prioritiseStep: (() => void) | null = null;
  #throttleTimer: TimerHandle | undefined;
  #latest: ReceiptRequest | null = null;
  #lastRead: ReceiptRequest | null = null;

  readonly #env: ClientEnv;
  readonly #logger: Logger;
  readonly #send: ReceiptSender;
  readonly #throttleTime: () => number;
  constructor(env: ClientEnv, logger: Logger, send: ReceiptSender, throttleTime: () => number) {
    this.#env = env;
    this.#logger = logger;
    this.#send = send;
    this.#throttleTime = throttleTime;
  }

  /** Hand in a receipt; resolves with the send's result or `{ message: "Event already fired" }`. */
  submit(receipt: ReceiptRequest): Promise<unknown> {
    const { messageId, contentType } = receipt;
    if (!messageId) return Promise.reject(new Error(MISSING_MESSAGE_ID));
    const isRead = contentType === ContentType.READ_RECEIPT;
    if (this.#readSet.has(messageId) || this.#readPending.has(messageId))
      return this.#alreadyFired();
    if (!isRead && (this.#deliveredSet.has(messageId) || this.#deliveredPending.has(messageId))) {
      return this.#alreadyFired();
    }
    const promise = new Promise<unknown>((resolve, reject) => {
      const map = isRead ? this.#readPending : this.#deliveredPending;
      map.set(messageId, [...(map.get(messageId) ?? []), { resolve, reject }]);
    });
    this.#prioritiseStep = () => this.#process(receipt);
    if (isRead) {
      this.#clearPrioritise();
      this.#runPrioritiseStep();
    } else if (this.#prioritiseTimer === undefined) {
      this.#prioritiseTimer = this.#env.setTimeout(() => {
        this.#prioritiseTimer = undefined;
        this.#runPrioritiseStep();
      }, RECEIPT_PRIORITISATION_DELAY_MS);
    }
    return promise;
  }

  /** Seed the sets from transcript items: receipts already sent are not sent again. */
  seed(items: readonly Item[]): void {
    for (const item of items) {
      const id = item.MessageMetadata?.MessageId;
      if (!id) continue;
      for (const receipt of item.MessageMetadata?.Receipts ?? []) {
        if (receipt.ReadTimestamp) this.#readSet.add(id);
        if (receipt.DeliveredTimestamp) this.#deliveredSet.add(id);
      }
    }
  }

  dispose(): void {
    this.#clearPrioritise();
    if (this.#throttleTimer !== undefined) this.#env.clearTimeout(this.#throttleTimer);
    this.#throttleTimer = undefined;
  }

  #alreadyFired(): Promise<unknown> {
    return Promise.resolve({ message: EVENT_ALREADY_FIRED });
  }

  #clearPrioritise(): void {
    if (this.#prioritiseTimer !== undefined) this.#env.clearTimeout(this.#prioritiseTimer);
    this.#prioritiseTimer = undefined;
  }

  #runPrioritiseStep(): void {
    const step = this.#prioritiseStep;
    this.#prioritiseStep = null;
    step?.();
  }

  #process(receipt: ReceiptRequest): void {
    const { messageId } = receipt;
    const isRead = receipt.contentType === ContentType.READ_RECEIPT;
    if (!isRead) {
      this.#deliveredSet.add(messageId);
      if (this.#readSet.has(messageId))
        return this.#settle(this.#deliveredPending, { message: EVENT_ALREADY_FIRED }, messageId);
    } else {
      this.#readSet.add(messageId);
    }
    if (receipt.disableThrottle) {
      const result = this.#sendSafely(receipt);
      return this.#settle(isRead ? this.#readPending : this.#deliveredPending, result, messageId);
    }
    this.#latest = receipt;
    if (isRead) this.#lastRead = receipt;
    if (this.#throttleTimer === undefined) {
      this.#throttleTimer = this.#env.setTimeout(() => {
        this.#throttleTimer = undefined;
        this.#flush();
      }, this.#throttleTime());
    }
  }

  /** The window closed: send only the most recent receipt (plus the latest read for a delivered). */
  #flush(): void {
    const receipt = this.#latest;
    this.#latest = null;
    if (!receipt) return;
    if (receipt.contentType === ContentType.READ_RECEIPT) {
      this.#lastRead = null;
      this.#settle(this.#readPending, this.#sendSafely(receipt));
      return;
    }
    const read = this.#lastRead;
    this.#lastRead = null;
    const delivered = this.#sendSafely(receipt);
    this.#settle(this.#deliveredPending, delivered);
    if (read) this.#settle(this.#readPending, this.#sendSafely(read));
  }

  #sendSafely(receipt: ReceiptRequest): Promise<unknown> {
    return this.#send(receipt).catch((error: unknown) => {
      this.#logger.error(FAILED_TO_SEND_RECEIPT, error);
      throw {
        ...(typeof error === "object" ? error : {}),
        message: FAILED_TO_SEND_RECEIPT,
        cause: error,
      };
    });
  }

  /** Settle the pending promises of one message (or of all messages) with a result. */
  #settle(map: Map<string, Deferred[]>, result: unknown, messageId?: string): void {
    const keys = messageId === undefined ? [...map.keys()] : [messageId];
    for (const key of keys) {
      for (const d of map.get(key) ?? []) {
        Promise.resolve(result).then(d.resolve, d.reject);
      }
      map.delete(key);
    }
  }
}
