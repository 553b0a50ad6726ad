/**
 * Throttles advisor sign-in so passwords cannot be guessed online: failed attempts are
 * counted per account (the username exactly as sent) and per client address
 * (`request.ip`); once either is over its limit, further attempts are refused with a 429
 * `ThrottlingException` and `Retry-After` *before* the password is checked, so guessing
 * stops rather than just slowing down.
 *
 * The counts live in the contact centre's limit store (limits/): shared by every process over
 * Redis when REDIS_URL is set, otherwise in this process's memory.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { addressKey } from "../http/client-address.js";
import { retryAfterSeconds, type LimitStore, type WindowKey } from "../limits/limit-store.js";
import { MemoryLimitStore } from "../limits/memory-limit-store.js";

/**
 * The limits. A sliding window: an account is refused while it has `perAccount` failures
 * within the last `windowMs`, and likewise an address with `perAddress` failures.
 *
 * - 5 failures per account in 15 minutes: enough for an advisor who mistypes or has caps
 *   lock on, and it holds online guessing of one account to 480 tries a day, hopeless
 *   against the CLI's generated passwords (24 random characters). The price is
 *   that someone who knows a username can lock that advisor out for up to 15 minutes; the
 *   window is kept short so that lock-out is an annoyance, not an outage.
 * - 20 failures per address in 15 minutes: several advisors behind one office NAT can still
 *   mistype, while one client cannot spray a common password over many usernames (which
 *   the per-account limit alone would not stop). Without a `trustProxy` setting every
 *   client behind a reverse proxy has the proxy's address, so they share this limit.
 * - In memory, 10,000 keys per table at most (limits/memory-limit-store.ts): an entry is a
 *   username of at most 128 characters (the sign-in schema) and at most 20 timestamps, well
 *   under 1 KB, so each table stays under ~10 MB. In Redis a key expires with its last
 *   failure's window.
 */
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAccount: SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  perAddress: SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  windowMs: SIGN_IN_WINDOW_MS,
};

/** The limit store's tables. */
export const SIGN_IN_ACCOUNT_TABLE = "sign-in-account";
export const SIGN_IN_ADDRESS_TABLE = "sign-in-address";

/** One sign-in attempt let through: it counts as failed unless told otherwise. */
export interface SignInAttempt {
  /** The password was right: the account's failures are forgotten. */
  succeeded(): Promise<void>;
  /** No verdict on the password (e.g. the store failed): the attempt does not count. */
  abandoned(): Promise<void>;
}

export interface SignInThrottleOptions {
  clock: Clock;
  limits?: Partial<SignInLimits>;
  /** Where the counts live (default: this process's memory). */
  store?: LimitStore;
}

export class SignInThrottle {
  private readonly clock: Clock;
  private readonly limits: SignInLimits;
  private readonly store: LimitStore;

  constructor(options: SignInThrottleOptions) {
    this.limits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.limits };
    this.clock = options.clock;
    this.store = options.store ?? new MemoryLimitStore();
  }

  /**
   * Lets a sign-in attempt through, or throws a `ThrottlingException` (429) carrying
   * `retryAfterSeconds` when the account or the address is over its limit. An attempt let
   * through is counted as a failure at once, in one atomic step of the store, before the
   * password is checked, so a burst of concurrent guesses cannot all slip in while the first
   * ones are still being verified.
   */
  async begin(username: string, address: string): Promise<SignInAttempt> {
    const { windowMs } = this.limits;
    const account: WindowKey = {
      table: SIGN_IN_ACCOUNT_TABLE,
      key: username,
      limit: { limit: this.limits.perAccount, windowMs },
    };
    const origin: WindowKey = {
      table: SIGN_IN_ADDRESS_TABLE,
      key: addressKey(address),
      limit: { limit: this.limits.perAddress, windowMs },
    };
    const mark = { at: this.clock.now(), id: randomUUID() };
    const waitMs = await this.store.addFailure([account, origin], mark);
    if (waitMs > 0) {
      const seconds = retryAfterSeconds(waitMs);
      throw Errors.throttling(`Too many sign-in attempts. Try again in ${seconds} s.`, seconds);
    }
    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.store.clearFailures(account);
        // The address keeps its other failures: signing in to one's own account must not
        // reset the count of guesses made at others from the same address.
        await this.store.removeFailure(origin, mark);
      },
      abandoned: async () => {
        if (settled) return;
        settled = true;
        await this.store.removeFailure(account, mark);
        await this.store.removeFailure(origin, mark);
      },
    };
  }
}
