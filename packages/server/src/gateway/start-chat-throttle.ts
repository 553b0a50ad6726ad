/**
 * Throttles `POST /gateway/start-chat` (issue 10: an attack started 105 chats a second from
 * one client). Each chat costs a contact, a participant, a token and a flow run in the
 * store, so starts are limited per client address and per instance; a start over either
 * limit is refused with a 429 `ThrottlingException`, "Too many chats started. Try again in
 * N s." and `Retry-After: N`, before any jwt is verified or anything is written.
 *
 * Why per instance and not per snippet: the widget sends its snippet id (the `Snippet-Id`
 * header) only on verify; the start-chat body carries `InstanceId` and `ContactFlowId` and
 * no snippet id, so the server cannot tell which snippet a start came from. A snippet is
 * configured for one instance, so the instance is the nearest key the start carries, and it
 * is the one that matters for the store. Only instances that exist are counted (the route
 * checks the instance first), so this table holds a handful of keys at most.
 *
 * Per process for now: each server process keeps its own buckets in memory, so N processes
 * behind a load balancer allow up to N times the limits. A later slice shares them over
 * Redis (issue 10, "limits shared across processes when REDIS_URL is set").
 */
import { isIP } from "node:net";
import type { Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { setNewest } from "../http/newest-first-map.js";

/**
 * The limits: a token bucket per key. A key holds at most `burst` chats' worth of tokens,
 * starting a chat takes one, and one comes back every `intervalMs`.
 *
 * - Per address, a burst of 20 then one chat every 3 s (20 a minute): a customer starts one
 *   chat, maybe a few after closing the widget or reloading; several customers behind one
 *   office or mobile-carrier NAT share an address, hence room for 20 at once. It holds the
 *   105-a-second flood from one client to 20 a minute. Without a `TRUST_PROXY` setting every
 *   client behind a reverse proxy has the proxy's address and they all share this limit;
 *   with it, `request.ip` is the client's address from X-Forwarded-For.
 * - Per instance, a burst of 100 then 50 chats a second: far above what customers of one
 *   contact centre start, a ceiling that keeps many clients (a botnet, or many IPv6
 *   addresses) together from flooding the store. The price is that such a flood refuses real
 *   customers too until it stops, which is better than a store brought down.
 * - 10,000 keys per table at most: a flood from many addresses cannot grow memory without
 *   bound. An entry is an address (at most 39 characters) and two numbers, well under 200
 *   bytes, so a table stays under ~2 MB. When full, the key used longest ago is dropped;
 *   keys also expire once their bucket has had time to fill up again.
 */
export const START_CHAT_BURST_PER_ADDRESS = 20;
export const START_CHAT_INTERVAL_MS_PER_ADDRESS = 3_000;
export const START_CHAT_BURST_PER_INSTANCE = 100;
export const START_CHAT_INTERVAL_MS_PER_INSTANCE = 20;
export const START_CHAT_MAX_KEYS = 10_000;

export interface BucketLimit {
  /** The most chats a key may start at once (the bucket's size). */
  burst: number;
  /** Milliseconds for one token to come back (one chat per `intervalMs` sustained). */
  intervalMs: number;
}

export interface StartChatLimits {
  perAddress: BucketLimit;
  perInstance: BucketLimit;
  /** The most keys each table (addresses, instances) holds. */
  maxKeys: number;
}

export const DEFAULT_START_CHAT_LIMITS: StartChatLimits = {
  perAddress: {
    burst: START_CHAT_BURST_PER_ADDRESS,
    intervalMs: START_CHAT_INTERVAL_MS_PER_ADDRESS,
  },
  perInstance: {
    burst: START_CHAT_BURST_PER_INSTANCE,
    intervalMs: START_CHAT_INTERVAL_MS_PER_INSTANCE,
  },
  maxKeys: START_CHAT_MAX_KEYS,
};

interface Bucket {
  /**
   * When the bucket is full again (ms). The token bucket kept as one timestamp (the "generic
   * cell rate algorithm"): the bucket holds `(full - now) / intervalMs` fewer tokens than
   * `burst`, so whole milliseconds keep it exact, with no fractions of a token.
   */
  full: number;
  /** When a chat last took a token (ms): the map is kept in this order. */
  used: number;
}

/**
 * The token buckets of one kind of key. The map is kept in order of each key's last use (a
 * key moves to the end when it takes a token), so the entries that expire first, and the
 * one dropped when the map is full, are at the front. A key missing from the map has a full
 * bucket.
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
    return Math.max(
      0,
      full + this.limit.intervalMs - now - this.limit.burst * this.limit.intervalMs,
    );
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
 * The key of a client address. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack
 * socket reports IPv4 clients) counts as its IPv4 address. Any other IPv6 address counts as
 * its /64 network: one customer line is routinely given a whole /64 and can pick any address
 * in it, so keying on the full address would let one client start a burst from each.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  // A dotted IPv4 ending stands for two groups; it is always past the first four.
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(8 - width(front) - width(back)).fill("0"), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

export interface StartChatThrottleOptions {
  clock: Clock;
  limits?: Partial<StartChatLimits>;
}

export class StartChatThrottle {
  private readonly clock: Clock;
  private readonly addresses: TokenBuckets;
  private readonly instances: TokenBuckets;

  constructor(options: StartChatThrottleOptions) {
    const limits = { ...DEFAULT_START_CHAT_LIMITS, ...options.limits };
    this.clock = options.clock;
    this.addresses = new TokenBuckets(limits.perAddress, limits.maxKeys);
    this.instances = new TokenBuckets(limits.perInstance, limits.maxKeys);
  }

  /**
   * Counts one chat start from `address` (`request.ip`) on `instanceId`, or throws a
   * `ThrottlingException` (429) carrying `retryAfterSeconds` (whole seconds, rounded up, at
   * least 1) when either is out of tokens. A refused start takes no token, so a client that
   * waits as told gets in. Synchronous, so concurrent starts cannot all slip past one check.
   */
  take(address: string, instanceId: string): void {
    const now = this.clock.now();
    const key = addressKey(address);
    const waitMs = Math.max(
      this.addresses.waitMs(key, now),
      this.instances.waitMs(instanceId, now),
    );
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw Errors.throttling(`Too many chats started. Try again in ${seconds} s.`, seconds);
    }
    this.addresses.take(key, now);
    this.instances.take(instanceId, now);
  }

  /** How many keys each table holds (bounded by `maxKeys`). */
  get size(): { addresses: number; instances: number } {
    return { addresses: this.addresses.size, instances: this.instances.size };
  }
}
