/**
 * The limits' counts in Redis, shared by every process of one contact centre. Each check is
 * one Lua script, so it is atomic across processes: concurrent requests to different
 * processes cannot all slip past one limit. Keys expire once back to a clean slate, so Redis
 * holds only the keys active within the longest window.
 *
 * When Redis cannot answer (down, or slower than COMMAND_TIMEOUT_MS), a check falls back to
 * this process's own counts rather than refusing everyone or letting everyone through: the
 * limits then hold per process, as without Redis, until it answers again.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type {
  BucketKey,
  FailureMark,
  LimitStore,
  PlaceKey,
  Release,
  WindowKey,
} from "./limit-store.js";
import { MemoryLimitStore, ROUNDING_SLACK_MS } from "./memory-limit-store.js";

/** Every key's start (after REDIS_KEY_PREFIX). */
export const LIMIT_KEY_PREFIX = "chat-widget:limit:";
/** A limit check waits at most this long for Redis before counting in memory. */
export const COMMAND_TIMEOUT_MS = 500;
/** The fallback is reported at most once in this long, not once per request. */
const FALLBACK_LOG_INTERVAL_MS = 60_000;

/**
 * Token buckets, as the memory store's TokenBuckets: each key holds the time its bucket is
 * full again, and expires a minute after that (the slack keeps Redis's own clock, which may
 * differ from the servers', from ever deciding a check), written with all 17 digits (a fraction
 * of a millisecond kept, as for 2,000 a second). KEYS: the buckets; ARGV: now, then burst and
 * intervalMs of each key.
 * Answers 0 when a token was taken from every key, else the milliseconds to wait.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local wait = 0
local full = {}
for i, key in ipairs(KEYS) do
  local burst = tonumber(ARGV[i * 2])
  local interval = tonumber(ARGV[i * 2 + 1])
  local f = tonumber(redis.call('GET', key) or now)
  if f < now then f = now end
  full[i] = f
  local w = f + interval - now - burst * interval
  if w > wait then wait = w end
end
if wait > ${ROUNDING_SLACK_MS} then return math.ceil(wait) end
for i, key in ipairs(KEYS) do
  local f = full[i] + tonumber(ARGV[i * 2 + 1])
  redis.call('SET', key, string.format('%.17g', f), 'PX', math.ceil(f - now) + 60000)
end
return 0`;

/**
 * Failure windows, as the memory store's FailureLog: each key is a sorted set of failures
 * scored by time. KEYS: the windows; ARGV: now, the failure's member, then limit and
 * windowMs of each key. Answers 0 when the failure was recorded on every key, else the
 * milliseconds until every key is under its limit.
 */
const ADD_FAILURE = `
local now = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i * 2 + 1])
  local window = tonumber(ARGV[i * 2 + 2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n >= limit then
    local oldest = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
    local w = tonumber(oldest[2]) + window - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return math.ceil(wait) end
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i * 2 + 1])
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('ZREMRANGEBYRANK', key, 0, -(limit + 1))
  redis.call('PEXPIRE', key, tonumber(ARGV[i * 2 + 2]))
end
return 0`;

/**
 * Places (websockets held open): each key is a hash with one field per place held,
 * `<process id>:<place id>`, and a process is alive while its `alive` key exists (it refreshes
 * it every HEARTBEAT_MS; it expires ALIVE_TTL_MS after the last refresh). Counting only live
 * processes' places, and dropping a dead one's fields when seen, means a process that dies
 * holding places does not hold them for ever; one field per place makes a release (HDEL) safe
 * to repeat. The hash expires ALIVE_TTL_MS after the last acquire or holder's heartbeat.
 * KEYS: the hash; ARGV: this process's id, max, the alive-key prefix, the place id, the hash's
 * time to live. Answers 1 when a place was taken, 0 when all are held. (It reads alive keys it
 * is not given in KEYS: fine on one Redis, not on a Redis Cluster.)
 */
const ACQUIRE = `
local live = {}
local total = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  local pid = string.match(field, '^[^:]+')
  if live[pid] == nil then
    live[pid] = pid == ARGV[1] or redis.call('EXISTS', ARGV[3] .. pid) == 1
  end
  if live[pid] then total = total + 1 else redis.call('HDEL', KEYS[1], field) end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1] .. ':' .. ARGV[4], '1')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/** At most this many stray places are remembered for deleting (see `stray`). */
const MAX_STRAY = 10_000;

/** How often a process says it is alive, and how long that lasts without a refresh. */
export const HEARTBEAT_MS = 10_000;
export const ALIVE_TTL_MS = 30_000;

type LimitCommands = Redis & {
  limitTake(...args: (string | number)[]): Promise<number>;
  limitAddFailure(...args: (string | number)[]): Promise<number>;
  limitAcquire(...args: (string | number)[]): Promise<number>;
};

export interface RedisLimitStoreOptions {
  url: string;
  /** Prefixes every key (tests keep apart this way). */
  prefix?: string;
  onError?: (error: unknown) => void;
}

export async function createRedisLimitStore(
  options: RedisLimitStoreOptions,
): Promise<RedisLimitStore> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // Fail fast while disconnected: a request must not wait for Redis to come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
  }) as LimitCommands;
  redis.on("error", () => {}); // each failed command is reported by the store instead
  redis.defineCommand("limitTake", { lua: TAKE });
  redis.defineCommand("limitAddFailure", { lua: ADD_FAILURE });
  redis.defineCommand("limitAcquire", { numberOfKeys: 1, lua: ACQUIRE });
  await redis.connect();
  const store = new RedisLimitStore(redis, options.prefix ?? LIMIT_KEY_PREFIX, options.onError);
  await store.heartbeat();
  return store;
}

export class RedisLimitStore implements LimitStore {
  private readonly fallback = new MemoryLimitStore();
  private lastReported = -Infinity;
  /** This process's id among those sharing the places. */
  private readonly processId = randomUUID();
  private readonly beat: ReturnType<typeof setInterval>;
  /** The places this process holds in Redis: hash field → hash key. */
  private readonly held = new Map<string, string>();
  /**
   * Fields Redis may hold that this process does not (field → key): released, or acquired by a
   * command that timed out (it may still run), while Redis could not answer. Deleted at the
   * next heartbeat.
   */
  private readonly stray = new Map<string, string>();

  constructor(
    private readonly redis: LimitCommands,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.beat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.beat.unref();
  }

  /**
   * Says this process is alive for ALIVE_TTL_MS more; writes again the places it holds (others
   * drop them if it stalled past its alive key) and keeps their hashes from expiring; deletes
   * the stray ones. Sent after every earlier command on the same connection, so a late command
   * that ran after its timeout is corrected here.
   */
  async heartbeat(): Promise<void> {
    const stray = [...this.stray];
    const batch = this.redis.multi().set(this.aliveKey(), "1", "PX", ALIVE_TTL_MS);
    for (const [field, key] of this.held) batch.hset(key, field, "1");
    for (const key of new Set(this.held.values())) batch.pexpire(key, ALIVE_TTL_MS);
    for (const [field, key] of stray) batch.hdel(key, field);
    try {
      await batch.exec();
    } catch (error) {
      this.report(error, Date.now());
      return;
    }
    for (const [field] of stray) this.stray.delete(field);
  }

  async take(buckets: readonly BucketKey[], now: number): Promise<number> {
    const args = [now, ...buckets.flatMap((b) => [b.limit.burst, b.limit.intervalMs])];
    try {
      return await this.redis.limitTake(
        buckets.length,
        ...buckets.map((b) => this.key(b)),
        ...args,
      );
    } catch (error) {
      this.report(error, now);
      return this.fallback.takeNow(buckets, now);
    }
  }

  async addFailure(windows: readonly WindowKey[], mark: FailureMark): Promise<number> {
    const args = [
      mark.at,
      this.member(mark),
      ...windows.flatMap((w) => [w.limit.limit, w.limit.windowMs]),
    ];
    try {
      return await this.redis.limitAddFailure(
        windows.length,
        ...windows.map((w) => this.key(w)),
        ...args,
      );
    } catch (error) {
      this.report(error, mark.at);
      return this.fallback.addFailureNow(windows, mark);
    }
  }

  async removeFailure(window: WindowKey, mark: FailureMark): Promise<void> {
    // The failure may have been counted in either place.
    await this.fallback.removeFailure(window, mark);
    await this.redis
      .zrem(this.key(window), this.member(mark))
      .catch((e) => this.report(e, mark.at));
  }

  async clearFailures(window: WindowKey): Promise<void> {
    await this.fallback.clearFailures(window);
    await this.redis.del(this.key(window)).catch((e) => this.report(e, Date.now()));
  }

  async acquire(place: PlaceKey): Promise<Release | null> {
    const key = this.key(place);
    const placeId = randomUUID();
    const field = `${this.processId}:${placeId}`;
    // Not ready: the command fails here without being sent, so Redis can never run it.
    const sent = this.redis.status === "ready";
    let taken: number;
    try {
      taken = await this.redis.limitAcquire(
        key,
        this.processId,
        place.max,
        `${this.prefix}alive:`,
        placeId,
        ALIVE_TTL_MS,
      );
    } catch (error) {
      this.report(error, Date.now());
      if (sent) this.addStray(field, key); // in case Redis runs it yet
      return this.fallback.acquireNow(place);
    }
    if (taken !== 1) return null;
    this.held.set(field, key);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.held.delete(field);
      try {
        await this.redis.hdel(key, field);
      } catch (error) {
        this.addStray(field, key);
        this.report(error, Date.now());
      }
    };
  }

  async close(): Promise<void> {
    clearInterval(this.beat);
    // Its places stop counting at once (its sockets are closing with it).
    await this.redis.del(this.aliveKey()).catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private addStray(field: string, key: string): void {
    // Bounded through a long outage; a stray field not deleted goes when its hash expires.
    if (this.stray.size < MAX_STRAY) this.stray.set(field, key);
  }

  private aliveKey(): string {
    return `${this.prefix}alive:${this.processId}`;
  }

  private key(k: { table: string; key: string }): string {
    return `${this.prefix}${k.table}:${k.key}`;
  }

  private member(mark: FailureMark): string {
    return `${mark.at}:${mark.id}`;
  }

  private report(error: unknown, now: number): void {
    if (now - this.lastReported < FALLBACK_LOG_INTERVAL_MS) return;
    this.lastReported = now;
    this.onError(error);
  }
}
