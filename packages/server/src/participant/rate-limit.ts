import type { Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { retryAfterSeconds, type BucketLimit, type LimitStore } from "../limits/limit-store.js";

/** The limit store's table of participants. */
export const PARTICIPANT_TABLE = "participant";

/**
 * Every participant route's limit: a token bucket per participant, `burst` requests at once,
 * then `perSecond` (RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND). The counts live in the limit
 * store, so over Redis one participant's requests are counted together whichever process
 * they reach.
 */
export class RateLimiter {
  private readonly limit: BucketLimit;

  constructor(
    private readonly clock: Clock,
    private readonly store: LimitStore,
    burst: number,
    perSecond: number,
  ) {
    // Not rounded to whole milliseconds: 600 a second must not become 500 (nor 3,000 become 1,000).
    this.limit = { burst, intervalMs: 1000 / perSecond };
  }

  /**
   * Counts one request of `participantId`, or throws a ThrottlingException (429): at once when
   * the store is in this process, else through the promise it returns.
   */
  take(participantId: string): undefined | Promise<void> {
    const waitMs = this.store.take(
      [{ table: PARTICIPANT_TABLE, key: participantId, limit: this.limit }],
      this.clock.now(),
    );
    return typeof waitMs === "number" ? refuseAfter(waitMs) : waitMs.then(refuseAfter);
  }
}

function refuseAfter(waitMs: number): undefined {
  if (waitMs > 0) {
    throw Errors.throttling(
      "Rate exceeded: too many requests from this participant.",
      retryAfterSeconds(waitMs),
    );
  }
  return undefined;
}
