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
 * The counts live in the contact centre's limit store (limits/): shared by every process over
 * Redis when REDIS_URL is set, otherwise in this process's memory.
 */
import type { Clock } from "../clock.js";
import type { ServerConfig } from "../config.js";
import { Errors } from "../errors.js";
import { addressKey } from "../http/client-address.js";
import { retryAfterSeconds, type BucketLimit, type LimitStore } from "../limits/limit-store.js";
import { MemoryLimitStore } from "../limits/memory-limit-store.js";

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
 * - Per instance, a burst then a rate per second (INSTANCE_START_CHAT_BURST and
 *   INSTANCE_START_CHAT_PER_SECOND; the class's own default, a burst of 100 then 50 a second,
 *   is for tests): a ceiling that keeps many clients (a botnet, or many IPv6 addresses)
 *   together from flooding the store, set at or above the set-up rate the server sustains
 *   (config.ts), so that it turns nobody away while the server could still serve them. The
 *   price is that a flood refuses real customers too until it stops, which is better than a
 *   store brought down.
 * - In memory, 10,000 keys per table at most (limits/memory-limit-store.ts): an entry is an
 *   address (at most 39 characters) and two numbers, well under 200 bytes, so a table stays
 *   under ~2 MB. In Redis a key expires once its bucket is full again.
 */
export const START_CHAT_BURST_PER_ADDRESS = 20;
export const START_CHAT_INTERVAL_MS_PER_ADDRESS = 3_000;
export const START_CHAT_BURST_PER_INSTANCE = 100;
export const START_CHAT_INTERVAL_MS_PER_INSTANCE = 20;

export interface StartChatLimits {
  perAddress: BucketLimit;
  perInstance: BucketLimit;
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
};

/**
 * The limits as configured (START_CHAT_* and INSTANCE_START_CHAT_*), each interval unrounded:
 * 2,000 chats a second is one every half millisecond, not one a millisecond.
 */
export function configuredStartChatLimits(
  config: Pick<
    ServerConfig,
    | "startChatBurst"
    | "startChatPerMinute"
    | "instanceStartChatBurst"
    | "instanceStartChatPerSecond"
  >,
): StartChatLimits {
  return {
    perAddress: { burst: config.startChatBurst, intervalMs: 60_000 / config.startChatPerMinute },
    perInstance: {
      burst: config.instanceStartChatBurst,
      intervalMs: 1_000 / config.instanceStartChatPerSecond,
    },
  };
}

/** The limit store's tables. */
export const START_CHAT_ADDRESS_TABLE = "start-chat-address";
export const START_CHAT_INSTANCE_TABLE = "start-chat-instance";

export interface StartChatThrottleOptions {
  clock: Clock;
  limits?: Partial<StartChatLimits>;
  /** Where the counts live (default: this process's memory). */
  store?: LimitStore;
}

export class StartChatThrottle {
  private readonly clock: Clock;
  private readonly limits: StartChatLimits;
  private readonly store: LimitStore;

  constructor(options: StartChatThrottleOptions) {
    this.limits = { ...DEFAULT_START_CHAT_LIMITS, ...options.limits };
    this.clock = options.clock;
    this.store = options.store ?? new MemoryLimitStore();
  }

  /**
   * Counts one chat start from `address` (`request.ip`) on `instanceId`, or throws a
   * `ThrottlingException` (429) carrying `retryAfterSeconds` (whole seconds, rounded up, at
   * least 1) when either is out of tokens. A refused start takes no token, so a client that
   * waits as told gets in. Both are counted in one atomic step of the store, so concurrent
   * starts cannot all slip past one check.
   */
  async take(address: string, instanceId: string): Promise<void> {
    const waitMs = await this.store.take(
      [
        {
          table: START_CHAT_ADDRESS_TABLE,
          key: addressKey(address),
          limit: this.limits.perAddress,
        },
        { table: START_CHAT_INSTANCE_TABLE, key: instanceId, limit: this.limits.perInstance },
      ],
      this.clock.now(),
    );
    if (waitMs > 0) {
      const seconds = retryAfterSeconds(waitMs);
      throw Errors.throttling(`Too many chats started. Try again in ${seconds} s.`, seconds);
    }
  }
}
