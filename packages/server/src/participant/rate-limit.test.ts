import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import type { LimitStore } from "../limits/limit-store.js";
import { LIMIT_STORES, openRedisStore } from "../limits/test-support/stores.js";
import { RateLimiter } from "./rate-limit.js";

/** How long the limiter says to wait (whole seconds), or 0 when the request is let through. */
const retryAfter = async (limiter: RateLimiter, key: string): Promise<number> => {
  try {
    await limiter.take(key);
    return 0;
  } catch (error) {
    if (isServiceError(error) && error.statusCode === 429) return error.retryAfterSeconds!;
    throw error;
  }
};

describe.each(LIMIT_STORES)("RateLimiter, counting in %s", (_name, openStore) => {
  let store: LimitStore;
  beforeEach(async () => {
    store = await openStore();
  });
  afterEach(() => store.close());

  it("allows a burst, then one request per 1/rate seconds, to the millisecond", async () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now }, store, 2, 4);
    expect(await retryAfter(limiter, "p")).toBe(0);
    expect(await retryAfter(limiter, "p")).toBe(0);
    expect(await retryAfter(limiter, "p")).toBe(1);
    now = 249;
    expect(await retryAfter(limiter, "p")).toBe(1);
    now = 250;
    expect(await retryAfter(limiter, "p")).toBe(0);
    expect(await retryAfter(limiter, "p")).toBe(1);
  });

  it("keeps a rate above one a millisecond as configured: 3,000 a second is 3 a millisecond", async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ now: () => now }, store, 3, 3_000);
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await retryAfter(limiter, "p"));
    now += 1;
    for (let i = 0; i < 4; i++) taken.push(await retryAfter(limiter, "p"));
    expect(taken).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it("keeps a rate that does not divide a second as configured: 600 a second, not 500 (an interval rounded to 2 ms)", async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ now: () => now }, store, 2, 600);
    while ((await retryAfter(limiter, "p")) === 0); // the burst
    let passed = 0;
    for (const end = now + 1_000; now < end;) {
      now += 1;
      while ((await retryAfter(limiter, "p")) === 0) passed++;
    }
    expect(passed).toBe(600);
  });

  it("never refills beyond the burst and keeps keys apart", async () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now }, store, 2, 1);
    now = 60_000;
    const three = [];
    for (let i = 0; i < 3; i++) three.push(await retryAfter(limiter, "a"));
    expect(three).toEqual([0, 0, 1]);
    expect(await retryAfter(limiter, "b")).toBe(0);
  });
});

describe("RateLimiter over Redis, from two processes", () => {
  it("counts one participant's concurrent requests together, wherever they arrive", async () => {
    // Two stores on two connections sharing one prefix: two server processes.
    const prefix = `test:limits:${randomUUID()}:`;
    const first = await openRedisStore(prefix);
    const second = await openRedisStore(prefix);
    try {
      const clock = { now: () => 1_000 };
      const a = new RateLimiter(clock, first, 10, 0.001);
      const b = new RateLimiter(clock, second, 10, 0.001);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => retryAfter(i % 2 ? a : b, "p")),
      );
      expect(answers.filter((s) => s === 0)).toHaveLength(10);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
