/**
 * Connection token refresh (docs/product.md §4, docs/protocol.md §5.1): one minute before the token's expiry;
 * 12 hours after the last poll when no expiry is known; retried at 12 hours on failure.
 */
import type { ClientEnv, Logger, TimerHandle } from "../env.js";

export const CONNECTION_TOKEN_POLLING_INTERVAL_MS = 43_200_000;
export const CONNECTION_TOKEN_EXPIRY_BUFFER_MS = 60_000;

/** When the next refresh is due, counted from `now`. */
export function refreshDelayMs(expiry: string | null | undefined, now: number): number {
  const at = expiry ? Date.parse(expiry) : NaN;
  if (Number.isNaN(at)) return CONNECTION_TOKEN_POLLING_INTERVAL_MS;
  // A timer longer than 2^31-1 ms fires at once: a far expiry is checked again then.
  return Math.min(2 ** 31 - 1, Math.max(0, at - now - CONNECTION_TOKEN_EXPIRY_BUFFER_MS));
}

export class TokenRefresher {
  #timer: TimerHandle | undefined;
  #stopped = false;

  readonly #env: ClientEnv;
  readonly #logger: Logger;
  readonly #refresh: () => Promise<string | null | undefined>;
  constructor(
    env: ClientEnv,
    logger: Logger,
    /** Fetches a new connection token; resolves with its expiry. */
    refresh: () => Promise<string | null | undefined>,
  ) {
    this.#env = env;
    this.#logger = logger;
    this.#refresh = refresh;
  }

  /** Arm for a token that expires at `expiry`. */
  start(expiry: string | null | undefined): void {
    this.#stopped = false;
    this.#schedule(refreshDelayMs(expiry, this.#env.now()));
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#env.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delay: number): void {
    if (this.#timer !== undefined) this.#env.clearTimeout(this.#timer);
    this.#timer = this.#env.setTimeout(() => void this.#run(), delay);
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    try {
      const expiry = await this.#refresh();
      if (!this.#stopped) this.#schedule(refreshDelayMs(expiry, this.#env.now()));
    } catch (error) {
      this.#logger.error("Token refresh failed", error);
      if (!this.#stopped) this.#schedule(CONNECTION_TOKEN_POLLING_INTERVAL_MS);
    }
  }
}
