import { describe, expect, it } from "vitest";
import { AvailabilityCache } from "./availability-cache.js";

/** A store answer the test releases by hand, and a clock it moves by hand. */
function setUp(maxAgeMs = 1000) {
  let now = 0;
  const asked: Array<{ resolve: (v: boolean) => void; reject: (e: Error) => void }> = [];
  const cache = new AvailabilityCache(
    () => new Promise<boolean>((resolve, reject) => asked.push({ resolve, reject })),
    { now: () => now },
    maxAgeMs,
  );
  return { cache, asked, advance: (ms: number) => (now += ms) };
}

describe("AvailabilityCache", () => {
  it("asks the store once for everyone asking meanwhile, then keeps the answer exactly maxAgeMs", async () => {
    const { cache, asked, advance } = setUp();
    const first = cache.get();
    const second = cache.get();
    expect(asked).toHaveLength(1);
    asked[0]!.resolve(true);
    expect(await first).toBe(true);
    expect(await second).toBe(true);

    advance(999);
    expect(await cache.get()).toBe(true);
    expect(asked).toHaveLength(1);

    advance(1);
    const third = cache.get();
    expect(asked).toHaveLength(2);
    asked[1]!.resolve(false);
    expect(await third).toBe(false);
    expect(await cache.get()).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it("after forget the next get asks the store, however fresh the answer was", async () => {
    const { cache, asked } = setUp();
    const first = cache.get();
    asked[0]!.resolve(false);
    expect(await first).toBe(false);

    cache.forget();
    const second = cache.get();
    expect(asked).toHaveLength(2);
    asked[1]!.resolve(true);
    expect(await second).toBe(true);
  });

  it("an answer asked before a forget is not kept: the next get asks again", async () => {
    const { cache, asked } = setUp();
    const before = cache.get();
    cache.forget();
    const after = cache.get();
    expect(asked).toHaveLength(2);
    asked[0]!.resolve(false);
    expect(await before).toBe(false);
    asked[1]!.resolve(true);
    expect(await after).toBe(true);
    // The answer kept is the one asked after the change.
    expect(await cache.get()).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it("a failed question reaches everyone who asked, and is not kept", async () => {
    const { cache, asked } = setUp();
    const first = cache.get();
    const second = cache.get();
    asked[0]!.reject(new Error("database down"));
    await expect(first).rejects.toThrow("database down");
    await expect(second).rejects.toThrow("database down");

    const third = cache.get();
    expect(asked).toHaveLength(2);
    asked[1]!.resolve(true);
    expect(await third).toBe(true);
  });
});
