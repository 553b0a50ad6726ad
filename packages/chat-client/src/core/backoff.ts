/**
 * The client's one backoff rule (docs/product.md §4, issue 9): 1 s doubling to 30 s, with ±30 % jitter,
 * never above 30 s. Used for reopening a websocket URL, fetching one, retrying a transcript
 * repair and resending a message; `random` is the injected source (a number in [0, 1); 0.5
 * means no jitter).
 */
import type { ClientEnv, TimerHandle } from "../env.js";

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
export const BACKOFF_JITTER = 0.3;

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffDelayMs(attempt: number, random: () => number): number {
  const exponential = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt), BACKOFF_MAX_MS);
  const factor = 1 + BACKOFF_JITTER * (2 * random() - 1);
  return Math.min(Math.round(exponential * factor), BACKOFF_MAX_MS);
}

/** One pending retry on the backoff: each failure waits longer, a success starts again at 1 s. */
export class BackoffRetry {
  #failures = 0;
  #timer: TimerHandle | undefined;
  readonly #env: Pick<ClientEnv, "setTimeout" | "clearTimeout" | "random">;

  constructor(env: Pick<ClientEnv, "setTimeout" | "clearTimeout" | "random">) {
    this.#env = env;
  }

  /** A retry is scheduled and has not run yet. */
  get waiting(): boolean {
    return this.#timer !== undefined;
  }

  /** Run `retry` after the next delay (replacing a scheduled one); returns the delay. */
  schedule(retry: () => void): number {
    this.cancel();
    const delay = backoffDelayMs(this.#failures++, this.#env.random);
    this.#timer = this.#env.setTimeout(() => {
      this.#timer = undefined;
      retry();
    }, delay);
    return delay;
  }

  cancel(): void {
    if (this.#timer !== undefined) this.#env.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  succeeded(): void {
    this.#failures = 0;
  }
}
