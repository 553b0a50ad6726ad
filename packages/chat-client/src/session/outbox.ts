/**
 * The session's outbox (issue 9, "Sending"). Each message gets its ClientToken when it is
 * written and keeps it through every retry, so the server stores it once however often it is
 * sent. Messages go out one at a time, in the order they were written. A failure that may
 * pass (no answer, timeout, 429, 5xx) is tried again on the client's backoff (1 s doubling to
 * 30 s, ±30 %), or at once when the connection comes back; a final one (a 4xx such as a
 * refused message) fails that message alone and the next one goes out.
 */
import { BackoffRetry } from "../core/backoff.js";
import { isFinalError } from "../core/errors.js";
import type { ClientEnv, Logger } from "../env.js";

export interface OutgoingMessage {
  clientToken: string;
  content: string;
  contentType: string;
}

interface Entry<R> extends OutgoingMessage {
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface OutboxOptions<R> {
  /** Send one message (with its ClientToken); resolves once the server stored it. */
  send(message: OutgoingMessage): Promise<R>;
  env: Pick<ClientEnv, "setTimeout" | "clearTimeout" | "random">;
  logger: Logger;
}

export class Outbox<R> {
  readonly #queue: Entry<R>[] = [];
  #inFlight = false;

  /** Set when the session is over: makes the error each later message fails with. */
  #closedWith: (() => unknown) | null = null;

  readonly #retry: BackoffRetry;
  readonly #o: OutboxOptions<R>;
  constructor(o: OutboxOptions<R>) {
    this.#o = o;
    this.#retry = new BackoffRetry(o.env);
  }

  /** Queue a message: resolves once it is stored, rejects only on a final error. */
  add(message: OutgoingMessage): Promise<R> {
    if (this.#closedWith) return Promise.reject(this.#closedWith());
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ ...message, resolve, reject });
      this.#pump();
    });
  }

  /** The connection is back: a message waiting for its retry goes now. */
  retryNow(): void {
    if (!this.#retry.waiting) return;
    this.#retry.cancel();
    this.#pump();
  }

  /** The session is over: every message still waiting fails (each with its own error), and so do later ones. */
  close(makeError: () => unknown): void {
    if (this.#closedWith) return;
    this.#closedWith = makeError;
    this.#retry.cancel();
    for (const entry of this.#queue.splice(0)) entry.reject(makeError());
  }

  #pump(): void {
    if (this.#inFlight || this.#retry.waiting || this.#closedWith) return;
    const head = this.#queue[0];
    if (!head) return;
    this.#inFlight = true;
    this.#o.send(head).then(
      (result) => this.#settle(head, () => head.resolve(result)),
      (error: unknown) => {
        if (isFinalError(error)) {
          this.#settle(head, () => head.reject(error));
          return;
        }
        this.#inFlight = false;
        if (this.#closedWith) return;
        const delay = this.#retry.schedule(() => this.#pump());
        this.#o.logger.warn(`Send failed, retry in ${delay} ms`, error);
      },
    );
  }

  #settle(head: Entry<R>, done: () => void): void {
    this.#inFlight = false;
    this.#retry.succeeded();
    if (this.#queue[0] === head) this.#queue.shift();
    done();
    this.#pump();
  }
}
