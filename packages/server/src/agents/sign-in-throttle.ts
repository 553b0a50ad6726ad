/**
 * Throttles advisor sign-in so passwords cannot be guessed online: failed attempts are
 * counted per account (the username exactly as sent) and per client address
 * (`request.ip`); once either is over its limit, further attempts are refused with a 429
 * `ThrottlingException` and `Retry-After` *before* the password is checked, so guessing
 * stops rather than just slowing down.
 *
 * Per process for now: each server process keeps its own counts in memory, so N processes
 * behind a load balancer allow up to N times the limits. A later slice may share the counts
 * over Redis (issue 10, "limits shared across processes when REDIS_URL is set").
 */
import type { Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { setNewest } from "../http/newest-first-map.js";

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
 * - 10,000 keys per table at most: a flood of random usernames (or addresses) cannot grow
 *   memory without bound. An entry is a username of at most 128 characters (the sign-in
 *   schema) and at most 20 timestamps, well under 1 KB, so each table stays under ~10 MB.
 *   When full, the key whose last failure is oldest is dropped; entries also expire once
 *   their last failure leaves the window.
 */
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5;
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_KEYS = 10_000;

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
  /** The most keys each table (accounts, addresses) holds. */
  maxKeys: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAccount: SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  perAddress: SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  windowMs: SIGN_IN_WINDOW_MS,
  maxKeys: SIGN_IN_MAX_KEYS,
};

/**
 * The recent failures of each key, oldest first, at most `limit` of them. The map is kept
 * in order of each key's last failure (a key moves to the end when it fails again), so the
 * entries that expire first, and the one dropped when the map is full, are at the front.
 */
class FailureLog {
  private readonly entries = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    this.expire(now);
    const failures = this.recent(key, now);
    if (failures.length < this.limit) return 0;
    return failures[failures.length - this.limit]! + this.windowMs - now;
  }

  add(key: string, now: number): void {
    this.expire(now);
    const failures = this.recent(key, now);
    failures.push(now);
    if (failures.length > this.limit) failures.splice(0, failures.length - this.limit);
    setNewest(this.entries, key, failures, this.maxKeys);
  }

  /** Takes back one failure recorded at `at` (an attempt that turned out not to fail). */
  remove(key: string, at: number): void {
    const failures = this.entries.get(key);
    if (!failures) return;
    const i = failures.lastIndexOf(at);
    if (i >= 0) failures.splice(i, 1);
    if (failures.length === 0) this.entries.delete(key);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  /** The key's failures still within the window (pruned in place). */
  private recent(key: string, now: number): number[] {
    const failures = this.entries.get(key);
    if (!failures) return [];
    const start = failures.findIndex((t) => t > now - this.windowMs);
    if (start === -1) {
      this.entries.delete(key);
      return [];
    }
    if (start > 0) failures.splice(0, start);
    return failures;
  }

  /** Drops keys whose last failure has left the window, from the front. */
  private expire(now: number): void {
    for (const [key, failures] of this.entries) {
      const last = failures[failures.length - 1];
      if (last !== undefined && last > now - this.windowMs) return;
      this.entries.delete(key);
    }
  }
}

/** One sign-in attempt let through: it counts as failed unless told otherwise. */
export interface SignInAttempt {
  /** The password was right: the account's failures are forgotten. */
  succeeded(): void;
  /** No verdict on the password (e.g. the store failed): the attempt does not count. */
  abandoned(): void;
}

export interface SignInThrottleOptions {
  clock: Clock;
  limits?: Partial<SignInLimits>;
}

export class SignInThrottle {
  private readonly clock: Clock;
  private readonly accounts: FailureLog;
  private readonly addresses: FailureLog;

  constructor(options: SignInThrottleOptions) {
    const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.limits };
    this.clock = options.clock;
    this.accounts = new FailureLog(limits.perAccount, limits.windowMs, limits.maxKeys);
    this.addresses = new FailureLog(limits.perAddress, limits.windowMs, limits.maxKeys);
  }

  /**
   * Lets a sign-in attempt through, or throws a `ThrottlingException` (429) carrying
   * `retryAfterSeconds` when the account or the address is over its limit. An attempt let
   * through is counted as a failure at once, before the password is checked, so a burst of
   * concurrent guesses cannot all slip in while the first ones are still being verified.
   */
  begin(username: string, address: string): SignInAttempt {
    const now = this.clock.now();
    const waitMs = Math.max(
      this.accounts.waitMs(username, now),
      this.addresses.waitMs(address, now),
    );
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw Errors.throttling(`Too many sign-in attempts. Try again in ${seconds} s.`, seconds);
    }
    this.accounts.add(username, now);
    this.addresses.add(address, now);
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        this.accounts.clear(username);
        // The address keeps its other failures: signing in to one's own account must not
        // reset the count of guesses made at others from the same address.
        this.addresses.remove(address, now);
      },
      abandoned: () => {
        if (settled) return;
        settled = true;
        this.accounts.remove(username, now);
        this.addresses.remove(address, now);
      },
    };
  }

  /** How many keys each table holds (bounded by `maxKeys`). */
  get size(): { accounts: number; addresses: number } {
    return { accounts: this.accounts.size, addresses: this.addresses.size };
  }
}
