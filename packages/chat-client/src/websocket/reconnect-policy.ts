/**
 * When to retry opening the same websocket URL (docs/product.md §4, docs/protocol.md §3.1 and §3.8): exponential
 * back-off from 1 s, doubling, capped at 30 s, with ±30 % jitter; and only while the URL is still
 * valid (`now + delay ≤ fetchTime + 85 s`). `null` means "give up on this URL, fetch a new one".
 */
import { backoffDelayMs } from "../core/backoff.js";
import { URL_VALIDITY_MS } from "./constants.js";

export interface ReconnectContext {
  /** Retries of this URL so far (0 for the first retry). */
  attempt: number;
  /** Milliseconds since the URL was fetched. */
  elapsedMs: number;
}

export interface ReconnectPolicy {
  nextDelayMs(context: ReconnectContext): number | null;
}

export interface ReconnectPolicyOptions {
  /** A number in [0, 1); 0.5 means no jitter. */
  random: () => number;
  /** How long a fetched URL may be used; a retry that would start later gives up. */
  urlValidityMs?: number;
}

export function createReconnectPolicy(options: ReconnectPolicyOptions): ReconnectPolicy {
  const validity = options.urlValidityMs ?? URL_VALIDITY_MS;
  return {
    nextDelayMs({ attempt, elapsedMs }) {
      const delay = backoffDelayMs(attempt, options.random);
      return elapsedMs + delay <= validity ? delay : null;
    },
  };
}
