import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../test/faults/rig.js";
import { startTcpProxy } from "../../test/faults/tcp-proxy.js";
import { killProcess, startRedisServer } from "../../test/support/redis-server.js";
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

/** Waits until the fan-out's Redis answers (or, `false`, no longer does). */
async function answers(fanout: FanOut, answering = true): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    // A ping sent just before the connection was cut waits for it to come back: not answering.
    const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500));
    const ok = await Promise.race([
      fanout.probe().then(
        () => true,
        () => false,
      ),
      late,
    ]);
    if (ok === answering) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the fan-out's Redis never ${answering ? "answered" : "stopped answering"}`);
}

describe("Redis fan-out after Redis restarts empty", () => {
  let redis: ChildProcess | undefined;
  const opened: FanOut[] = [];
  afterEach(async () => {
    for (const f of opened.splice(0)) await f.close();
    if (redis) await killProcess(redis);
  });

  it("subscribes again, then says so (onResume) in both processes; what is published after arrives", async () => {
    const port = await freePort();
    redis = await startRedisServer(port);
    const url = `redis://127.0.0.1:${port}`;
    const one = await createRedisFanOut(url);
    const two = await createRedisFanOut(url);
    opened.push(one, two);
    const resumed = { one: 0, two: 0 };
    one.onResume(() => resumed.one++);
    two.onResume(() => resumed.two++);
    const atTwo = collector();
    await two.subscribe("c", atTwo.handler);
    await one.publish("c", 1);
    await atTwo.until(1);

    await killProcess(redis);
    redis = await startRedisServer(port);
    for (let i = 0; i < 1_000 && (resumed.one === 0 || resumed.two === 0); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(resumed).toEqual({ one: 1, two: 1 });
    // Resumed means subscribed: the first publication after it arrives (once its publisher is
    // back too: one made while it is not would be lost, and the others told to resume).
    await answers(one);
    await one.publish("c", 2);
    await atTwo.until(2);
    expect(atTwo.seen).toEqual([1, 2]);
  });

  it("a publication that failed while one process's Redis was away makes the other resume once it is back", async () => {
    const port = await freePort();
    redis = await startRedisServer(port);
    const proxy = await startTcpProxy(port);
    try {
      const one = await createRedisFanOut(`redis://127.0.0.1:${proxy.port}`);
      const two = await createRedisFanOut(`redis://127.0.0.1:${port}`);
      opened.push(one, two);
      let twoResumed = 0;
      two.onResume(() => twoResumed++);
      const atOne = collector();
      await one.subscribe("c", atOne.handler);
      await proxy.set("refuse");
      await answers(one, false);
      // Redis is away for this process: its publication does not wait, and its own hear it.
      await one.publish("c", "lost");
      expect(atOne.seen).toEqual(["lost"]);
      expect(twoResumed).toBe(0);
      await proxy.set("pass");
      for (let i = 0; i < 1_000 && twoResumed === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      // Its own subscriber was never cut: it resumed on the failed publication's word alone.
      expect(twoResumed).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

describe("Redis fan-out with a key prefix", () => {
  it("a deployment hears only its own prefix's publications, on the same channel names", async () => {
    const [a, b] = [`a-${Math.random()}:`, `b-${Math.random()}:`];
    const shopA = await createRedisFanOut(REDIS_URL, undefined, a);
    const shopA2 = await createRedisFanOut(REDIS_URL, undefined, a);
    const shopB = await createRedisFanOut(REDIS_URL, undefined, b);
    const shopB2 = await createRedisFanOut(REDIS_URL, undefined, b);
    try {
      const atA2 = collector();
      const atB2 = collector();
      await shopA2.subscribe("contact-centre", atA2.handler);
      await shopB2.subscribe("contact-centre", atB2.handler);
      await shopA.publish("contact-centre", "to a");
      await shopB.publish("contact-centre", "to b");
      await atA2.until(1);
      await atB2.until(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(atA2.seen).toEqual(["to a"]);
      expect(atB2.seen).toEqual(["to b"]);
    } finally {
      for (const f of [shopA, shopA2, shopB, shopB2]) await f.close();
    }
  });
});
