import { afterEach, describe, expect, it } from "vitest";
import type { FanOut, FanOutHandler } from "./fanout.js";
import { createMemoryFanOut } from "./memory.js";
import { createRedisFanOut } from "./redis.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

function collector(): {
  seen: unknown[];
  /** Per message seen, whether another process published it. */
  remote: boolean[];
  handler: FanOutHandler;
  until(n: number): Promise<void>;
} {
  const seen: unknown[] = [];
  const remote: boolean[] = [];
  return {
    seen,
    remote,
    handler: (m, fromElsewhere) => {
      seen.push(m);
      remote.push(fromElsewhere);
    },
    async until(n) {
      for (let i = 0; i < 200 && seen.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    },
  };
}

describe("in-process fan-out", () => {
  it("delivers each publication once, in order, to every subscriber until it unsubscribes", async () => {
    const fanout = createMemoryFanOut();
    const a = collector();
    const b = collector();
    const unsubscribeA = await fanout.subscribe("c", a.handler);
    await fanout.subscribe("c", b.handler);
    await fanout.publish("c", 1);
    await fanout.publish("other", "x");
    await unsubscribeA();
    await fanout.publish("c", 2);
    expect(a.seen).toEqual([1]);
    expect(b.seen).toEqual([1, 2]);
    expect(b.remote).toEqual([false, false]);
    await fanout.close();
  });

  it("a throwing subscriber does not stop the others", async () => {
    const errors: unknown[] = [];
    const fanout = createMemoryFanOut((e) => errors.push(e));
    const ok = collector();
    await fanout.subscribe("c", () => {
      throw new Error("boom");
    });
    await fanout.subscribe("c", ok.handler);
    await fanout.publish("c", "m");
    expect(ok.seen).toEqual(["m"]);
    expect(errors).toHaveLength(1);
  });
});

describe("Redis fan-out", () => {
  const opened: FanOut[] = [];
  afterEach(async () => {
    for (const f of opened.splice(0)) await f.close();
  });

  it("delivers to other processes, and a process receives its own publications exactly once", async () => {
    const channel = `test-${Math.random()}`;
    const one = await createRedisFanOut(REDIS_URL);
    const two = await createRedisFanOut(REDIS_URL);
    opened.push(one, two);
    const atOne = collector();
    const atTwo = collector();
    await one.subscribe(channel, atOne.handler);
    await two.subscribe(channel, atTwo.handler);
    await one.publish(channel, { n: 1 });
    await two.publish(channel, { n: 2 });
    await atOne.until(2);
    await atTwo.until(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(atOne.seen).toEqual([{ n: 1 }, { n: 2 }]);
    expect(atOne.seen).toHaveLength(2);
    // Its own publication is local, the other's remote.
    expect(atOne.remote).toEqual([false, true]);
    // Each process sees its own publication at once and the other's through Redis: once each.
    const byN = (x: unknown, y: unknown) => (x as { n: number }).n - (y as { n: number }).n;
    expect([...atTwo.seen].sort(byN)).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
