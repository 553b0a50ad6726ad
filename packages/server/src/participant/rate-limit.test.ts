import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.js";

describe("RateLimiter", () => {
  it("allows a burst, then one request per 1/rate seconds, to the millisecond", () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now }, 2, 4);
    expect(limiter.take("p")).toBe(true);
    expect(limiter.take("p")).toBe(true);
    expect(limiter.take("p")).toBe(false);
    now = 249;
    expect(limiter.take("p")).toBe(false);
    now = 250;
    expect(limiter.take("p")).toBe(true);
    expect(limiter.take("p")).toBe(false);
  });

  it("never refills beyond the burst and keeps keys apart", () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now }, 2, 1);
    now = 60_000;
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([true, true, false]);
    expect(limiter.take("b")).toBe(true);
  });

  it("says how long until the next token: what a throttled caller is told to wait", () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now }, 1, 4);
    expect(limiter.waitMs("p")).toBe(0);
    limiter.take("p");
    expect(limiter.waitMs("p")).toBe(250);
    now = 100;
    expect(limiter.waitMs("p")).toBe(150);
    now = 250;
    expect(limiter.waitMs("p")).toBe(0);
  });
});
