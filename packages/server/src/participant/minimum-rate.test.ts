/** The minimum upload rate (issue 10: slow uploads must not hold the upload slots). */
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { atMinimumRate } from "./minimum-rate.js";

const rate = { bytesPerSecond: 1000, graceMs: 10_000 };

/** Reads `body` at the minimum rate; the outcome is kept for the test to look at. */
function read(body: PassThrough) {
  const outcome = { bytes: 0, done: false, error: null as Error | null };
  void (async () => {
    try {
      for await (const piece of atMinimumRate(body.iterator({ destroyOnReturn: false }), rate)) {
        outcome.bytes += piece.length;
      }
      outcome.done = true;
    } catch (error) {
      outcome.error = error as Error;
    }
  })();
  return outcome;
}

describe("an upload body read at a minimum rate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("that sends nothing is refused exactly when the grace has passed", async () => {
    const outcome = read(new PassThrough());
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome.error).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.error?.message).toBe(
      "The upload was too slow: 0 bytes in 10 s; after the first 10 s it must average at least 1000 bytes a second.",
    );
  });

  it("may pause as long as its average holds: 20,000 bytes at once buy 20 s of waiting", async () => {
    const body = new PassThrough();
    const outcome = read(body);
    body.write(Buffer.alloc(20_000));
    await vi.advanceTimersByTimeAsync(19_999);
    expect(outcome).toMatchObject({ bytes: 20_000, error: null });
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.error?.message).toMatch(/^The upload was too slow: 20000 bytes in 20 s;/);
  });

  it("that keeps up with the rate is read to its end", async () => {
    const body = new PassThrough();
    const outcome = read(body);
    for (let second = 0; second < 30; second++) {
      body.write(Buffer.alloc(1100));
      await vi.advanceTimersByTimeAsync(1000);
    }
    body.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toEqual({ bytes: 33_000, done: true, error: null });
  });

  it("that falls behind after the grace is refused once its average drops below the rate", async () => {
    const body = new PassThrough();
    const outcome = read(body);
    // 500 bytes a second: within the grace it is fine; at 10 s it has 5,000 bytes, which cover
    // only 5 s, so the next piece (due at 11 s) is already late.
    for (let second = 0; second < 10; second++) {
      body.write(Buffer.alloc(500));
      await vi.advanceTimersByTimeAsync(999);
      expect(outcome.error).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(outcome.error?.message).toMatch(/^The upload was too slow: 5000 bytes in 10 s;/);
  });
});
