/**
 * The Redis limit store when Redis stops answering (issue 10): a check must neither hang the
 * request nor let everyone through. Redis is reached through a TCP proxy the test black-holes,
 * then resets, then lets through again.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { BucketKey, PlaceKey, Release } from "../src/limits/limit-store.js";
import {
  ALIVE_TTL_MS,
  createRedisLimitStore,
  type RedisLimitStore,
} from "../src/limits/redis-limit-store.js";
import { startTcpProxy, type TcpProxy } from "./faults/tcp-proxy.js";
import { TEST_REDIS_URL } from "./support/shared-redis.js";

const REDIS = new URL(TEST_REDIS_URL);

describe("Redis limit store while Redis is unreachable", () => {
  let proxy: TcpProxy;
  let store: RedisLimitStore;
  const errors: unknown[] = [];
  beforeAll(async () => {
    proxy = await startTcpProxy(Number(REDIS.port || 6379));
    store = await createRedisLimitStore({
      url: `redis://127.0.0.1:${proxy.port}`,
      prefix: `test:limits:${randomUUID()}:`,
      onError: (error) => errors.push(error),
    });
  }, 60_000);
  afterAll(async () => {
    await proxy?.set("pass");
    await store?.close();
    await proxy?.close();
  });

  const bucket = (key: string): BucketKey[] => [
    { table: "t", key, limit: { burst: 2, intervalMs: 60_000 } },
  ];
  const takes = async (key: string, n: number): Promise<number[]> => {
    const waits = [];
    for (let i = 0; i < n; i++) waits.push(await store.take(bucket(key), Date.now()));
    return waits.map((w) => (w > 0 ? 1 : 0));
  };

  it("counts in Redis, then in this process while Redis is black-holed or reset, and reports it once", async () => {
    expect(await takes("p", 3)).toEqual([0, 0, 1]);
    // Keys spent in Redis only: after the outage, one of them refused says Redis counts again.
    for (let i = 0; i < 100; i++) await takes(`spent-${i}`, 2);
    expect(errors).toHaveLength(0);

    await proxy.set("blackhole");
    // Each check gives up on Redis after its timeout and counts here: still a limit.
    expect(await takes("q", 3)).toEqual([0, 0, 1]);
    expect(errors.length).toBe(1);

    await proxy.set("reset");
    expect(await takes("q", 1)).toEqual([1]);
    expect(errors.length).toBe(1); // reported at most once a minute

    await proxy.set("pass");
    let back = false;
    for (let i = 0; i < 100 && !back; i++) {
      back = (await takes(`spent-${i}`, 1))[0] === 1;
      if (!back) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toBe(true);
    expect(await takes("p", 1)).toEqual([1]);
  }, 60_000);
});

/**
 * Places (websockets per address) when Redis answers late: a command that timed out here may
 * still run in Redis afterwards (the proxy holds its bytes, then lets them through), and a
 * process that stalls longer than its alive key lasts has its places dropped by the others.
 * Either way the count in Redis must come back to the places really held.
 */
describe("Redis places when Redis answers late", () => {
  let proxy: TcpProxy;
  let prefix: string;
  let late: RedisLimitStore; // reaches Redis through the proxy
  let other: RedisLimitStore; // another process, straight to Redis
  let admin: Redis;
  const place: PlaceKey = { table: "websockets", key: "198.51.100.9", max: 3 };
  beforeEach(async () => {
    proxy = await startTcpProxy(Number(REDIS.port || 6379));
    prefix = `test:limits:${randomUUID()}:`;
    admin = new Redis(REDIS.href);
    late = await createRedisLimitStore({ url: `redis://127.0.0.1:${proxy.port}`, prefix });
    other = await createRedisLimitStore({ url: REDIS.href, prefix });
  }, 60_000);
  afterEach(async () => {
    await proxy.set("pass");
    await late.close();
    await other.close();
    await admin.quit();
    await proxy.close();
  });

  /** How many places the other process can take now (it gives them back). */
  const freeForOther = async (): Promise<number> => {
    const held: Release[] = [];
    for (let r = await other.acquire(place); r; r = await other.acquire(place)) held.push(r);
    await Promise.all(held.map((release) => release()));
    return held.length;
  };
  const placesKey = () => `${prefix}${place.table}:${place.key}`;

  it("an acquire that timed out but ran in Redis later is given back at the next heartbeat", async () => {
    await proxy.set("blackhole");
    const fallback = await late.acquire(place); // counted in this process meanwhile
    expect(fallback).not.toBeNull();
    await proxy.set("pass");
    await late.heartbeat(); // sent after the late acquire on the same connection
    expect(await freeForOther()).toBe(3);
    await fallback!();
    expect(await freeForOther()).toBe(3);
  }, 30_000);

  it("a release that timed out but ran in Redis later is not given back twice", async () => {
    const first = await late.acquire(place);
    const second = await late.acquire(place);
    expect(first && second).toBeTruthy();
    await proxy.set("blackhole");
    await first!();
    await proxy.set("pass");
    await late.heartbeat(); // retries the release
    await late.heartbeat();
    expect(await freeForOther()).toBe(2); // the second is still held
    await second!();
    expect(await freeForOther()).toBe(3);
  }, 30_000);

  it("a process whose alive key lapsed (it stalled) counts its places again at its next heartbeat", async () => {
    const held = [await late.acquire(place), await late.acquire(place)];
    expect(held.every(Boolean)).toBe(true);
    const aliveKeys = await admin.keys(`${prefix}alive:*`);
    await admin.del(...aliveKeys); // both stalled past ALIVE_TTL_MS
    await other.heartbeat();
    expect(await freeForOther()).toBe(3); // the stalled process's places were dropped
    await late.heartbeat();
    expect(await freeForOther()).toBe(1);
    await Promise.all(held.map((release) => release!()));
    expect(await freeForOther()).toBe(3);
  }, 30_000);

  it("a key of places expires once no live process holds one (no hash left for ever)", async () => {
    const release = await late.acquire(place);
    const ttl = await admin.pttl(placesKey());
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(ALIVE_TTL_MS);
    await release!();
  }, 30_000);
});
