/**
 * The Redis limit store when Redis stops answering (issue 10): a check must neither hang the
 * request nor let everyone through. Redis is reached through a TCP proxy the test black-holes,
 * then resets, then lets through again.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BucketKey } from "../src/limits/limit-store.js";
import { createRedisLimitStore, type RedisLimitStore } from "../src/limits/redis-limit-store.js";
import { startTcpProxy, type TcpProxy } from "./faults/tcp-proxy.js";

const REDIS = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

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
