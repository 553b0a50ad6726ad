/**
 * The limits' counts in this process's memory: the default, and what a Redis store falls
 * back to while Redis cannot be reached. Every table holds at most `maxKeys` keys, so a flood
 * from many addresses (or of random usernames) cannot grow memory without bound: when a table
 * is full the key used longest ago is dropped, and keys also expire once they are back to a
 * clean slate. Synchronous inside, so concurrent requests cannot slip past one check.
 */
import { setNewest } from "../http/newest-first-map.js";
import type {
  BucketKey,
  BucketLimit,
  FailureMark,
  LimitStore,
  PlaceKey,
  Release,
  WindowKey,
  WindowLimit,
} from "./limit-store.js";

/** The most keys a table holds by default (see the throttles for what an entry costs). */
export const DEFAULT_MAX_KEYS = 10_000;

/**
 * A wait this short is none: a fractional interval (see BucketLimit) makes the bucket's times
 * fractions of a millisecond, which a double rounds (to ~0.25 µs at today's timestamps). The
 * Redis store's script allows the same. So a rate above ~100,000 a second (an interval of a few
 * such steps) is kept only roughly: set that high, a limit is off in all but name.
 */
export const ROUNDING_SLACK_MS = 0.001;

interface Bucket {
  /**
   * When the bucket is full again (ms). The token bucket kept as one timestamp (the "generic
   * cell rate algorithm"): the bucket holds `(full - now) / intervalMs` fewer tokens than
   * `burst`, with no fractions of a token to keep. It is a fraction of a millisecond where a
   * token comes back more often than once a millisecond (2,000 chats a second, say).
   */
  full: number;
  /** When a request last took a token (ms): the map is kept in this order. */
  used: number;
}

/**
 * The token buckets of one kind of key. The map is kept in order of each key's last use (a
 * key moves to the end when it takes a token), so the entries that expire first, and the one
 * dropped when the map is full, are at the front. A key missing from the map has a full bucket.
 */
export class TokenBuckets {
  private readonly entries = new Map<string, Bucket>();

  constructor(
    private readonly limit: BucketLimit,
    private readonly maxKeys: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until `key` has a token; 0 when it has one now. */
  waitMs(key: string, now: number): number {
    this.expire(now);
    const full = Math.max(this.entries.get(key)?.full ?? now, now);
    // Taking a token moves `full` one interval on; allowed while that stays within a burst.
    const wait = full + this.limit.intervalMs - now - this.limit.burst * this.limit.intervalMs;
    return wait > ROUNDING_SLACK_MS ? wait : 0;
  }

  /** Takes one token from `key` (call after `waitMs` answered 0). */
  take(key: string, now: number): void {
    this.expire(now);
    const full = Math.max(this.entries.get(key)?.full ?? now, now) + this.limit.intervalMs;
    setNewest(this.entries, key, { full, used: now }, this.maxKeys);
  }

  /**
   * Drops keys from the front while their bucket is surely full again: a bucket used at
   * `used` is full by `used + burst × intervalMs` at the latest, and that bound grows in map
   * order, so the sweep stops at the first key that may still be short of tokens.
   */
  private expire(now: number): void {
    const refillMs = this.limit.burst * this.limit.intervalMs;
    for (const [key, bucket] of this.entries) {
      if (bucket.used + refillMs > now) return;
      this.entries.delete(key);
    }
  }
}

/**
 * The recent failures of each key, oldest first, at most `limit` of them. The map is kept in
 * order of each key's last failure (a key moves to the end when it fails again), so the
 * entries that expire first, and the one dropped when the map is full, are at the front.
 */
export class FailureLog {
  private readonly entries = new Map<string, number[]>();

  constructor(
    private readonly limit: WindowLimit,
    private readonly maxKeys: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until `key` may fail again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    this.expire(now);
    const failures = this.recent(key, now);
    if (failures.length < this.limit.limit) return 0;
    return failures[failures.length - this.limit.limit]! + this.limit.windowMs - now;
  }

  add(key: string, now: number): void {
    this.expire(now);
    const failures = this.recent(key, now);
    failures.push(now);
    if (failures.length > this.limit.limit) failures.splice(0, failures.length - this.limit.limit);
    setNewest(this.entries, key, failures, this.maxKeys);
  }

  /** Takes back one failure recorded at `at`. */
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
    const start = failures.findIndex((t) => t > now - this.limit.windowMs);
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
      if (last !== undefined && last > now - this.limit.windowMs) return;
      this.entries.delete(key);
    }
  }
}

export class MemoryLimitStore implements LimitStore {
  private readonly buckets = new Map<string, TokenBuckets>();
  private readonly failures = new Map<string, FailureLog>();
  private readonly places = new Map<string, Map<string, number>>();

  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {}

  /** The synchronous form of `take`, for the Redis store's fallback. */
  takeNow(buckets: readonly BucketKey[], now: number): number {
    const tables = buckets.map((b) => this.bucketTable(b));
    const wait = Math.max(0, ...buckets.map((b, i) => tables[i]!.waitMs(b.key, now)));
    if (wait === 0) buckets.forEach((b, i) => tables[i]!.take(b.key, now));
    return wait;
  }

  take(buckets: readonly BucketKey[], now: number): number {
    return this.takeNow(buckets, now);
  }

  /** The synchronous form of `addFailure`. */
  addFailureNow(windows: readonly WindowKey[], mark: FailureMark): number {
    const logs = windows.map((w) => this.failureLog(w));
    const wait = Math.max(0, ...windows.map((w, i) => logs[i]!.waitMs(w.key, mark.at)));
    if (wait === 0) windows.forEach((w, i) => logs[i]!.add(w.key, mark.at));
    return wait;
  }

  async addFailure(windows: readonly WindowKey[], mark: FailureMark): Promise<number> {
    return this.addFailureNow(windows, mark);
  }

  async removeFailure(window: WindowKey, mark: FailureMark): Promise<void> {
    this.failures.get(window.table)?.remove(window.key, mark.at);
  }

  async clearFailures(window: WindowKey): Promise<void> {
    this.failures.get(window.table)?.clear(window.key);
  }

  /** The synchronous form of `acquire`. Only keys with places held are kept. */
  acquireNow(place: PlaceKey): Release | null {
    let table = this.places.get(place.table);
    if (!table) this.places.set(place.table, (table = new Map<string, number>()));
    const held = table.get(place.key) ?? 0;
    if (held >= place.max) return null;
    table.set(place.key, held + 1);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const n = (table.get(place.key) ?? 1) - 1;
      if (n > 0) table.set(place.key, n);
      else table.delete(place.key);
    };
  }

  async acquire(place: PlaceKey): Promise<Release | null> {
    return this.acquireNow(place);
  }

  async close(): Promise<void> {}

  /** How many keys `table` holds (bounded by `maxKeys`). */
  size(table: string): number {
    return (
      (this.buckets.get(table) ?? this.failures.get(table) ?? this.places.get(table))?.size ?? 0
    );
  }

  private bucketTable(b: BucketKey): TokenBuckets {
    let table = this.buckets.get(b.table);
    if (!table) this.buckets.set(b.table, (table = new TokenBuckets(b.limit, this.maxKeys)));
    return table;
  }

  private failureLog(w: WindowKey): FailureLog {
    let log = this.failures.get(w.table);
    if (!log) this.failures.set(w.table, (log = new FailureLog(w.limit, this.maxKeys)));
    return log;
  }
}
