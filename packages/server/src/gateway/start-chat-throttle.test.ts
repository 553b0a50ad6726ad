import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isServiceError, type ServiceError } from "../errors.js";
import {
  configuredStartChatLimits,
  DEFAULT_START_CHAT_LIMITS,
  START_CHAT_BURST_PER_ADDRESS,
  START_CHAT_INTERVAL_MS_PER_ADDRESS,
  START_CHAT_ADDRESS_TABLE,
  START_CHAT_INSTANCE_TABLE,
  StartChatThrottle,
  type StartChatLimits,
} from "./start-chat-throttle.js";
import type { LimitStore } from "../limits/limit-store.js";
import { MemoryLimitStore } from "../limits/memory-limit-store.js";
import { LIMIT_STORES } from "../limits/test-support/stores.js";

const fakeClock = (start = 1_000_000) => {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

const refusal = async (f: () => Promise<void>): Promise<ServiceError> => {
  try {
    await f();
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error("expected a ThrottlingException");
};

const INSTANCE = "instance-1";

describe.each(LIMIT_STORES)("start-chat throttle, counting in %s", (_name, openStore) => {
  let store: LimitStore;
  beforeEach(async () => {
    store = await openStore();
  });
  afterEach(() => store.close());

  const setup = (limits: Partial<StartChatLimits> = {}) => {
    const clock = fakeClock();
    const throttle = new StartChatThrottle({ clock, limits, store });
    return { clock, throttle };
  };

  it("lets a burst of 20 chats through from one address, then refuses with 429 and Retry-After", async () => {
    expect(START_CHAT_BURST_PER_ADDRESS).toBe(20);
    expect(START_CHAT_INTERVAL_MS_PER_ADDRESS).toBe(3_000);
    const { throttle } = setup();
    for (let i = 0; i < START_CHAT_BURST_PER_ADDRESS; i++)
      await throttle.take("10.0.0.1", INSTANCE);
    const refused = await refusal(() => throttle.take("10.0.0.1", INSTANCE));
    expect(refused.type).toBe("ThrottlingException");
    expect(refused.statusCode).toBe(429);
    expect(refused.message).toBe("Too many chats started. Try again in 3 s.");
    expect(refused.retryAfterSeconds).toBe(3);
  });

  it("gives back one chat every interval, and a refused start takes no token", async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 20; i++) await throttle.take("10.0.0.1", INSTANCE);
    clock.advance(2_999);
    // Refused again and again while waiting: none of these delays the next token.
    for (let i = 0; i < 5; i++) await refusal(() => throttle.take("10.0.0.1", INSTANCE));
    clock.advance(1);
    await throttle.take("10.0.0.1", INSTANCE);
    expect((await refusal(() => throttle.take("10.0.0.1", INSTANCE))).retryAfterSeconds).toBe(3);
    // After a full refill (20 × 3 s) the whole burst is back, and no more.
    clock.advance(60_000);
    for (let i = 0; i < 20; i++) await throttle.take("10.0.0.1", INSTANCE);
    await refusal(() => throttle.take("10.0.0.1", INSTANCE));
  });

  it("rounds Retry-After up to whole seconds, at least 1", async () => {
    const { clock, throttle } = setup({ perAddress: { burst: 2, intervalMs: 6_000 } });
    await throttle.take("10.0.0.1", INSTANCE);
    await throttle.take("10.0.0.1", INSTANCE);
    const refused = () => refusal(() => throttle.take("10.0.0.1", INSTANCE));
    expect((await refused()).retryAfterSeconds).toBe(6);
    clock.advance(1);
    expect((await refused()).retryAfterSeconds).toBe(6); // 5.999 s
    expect((await refused()).message).toBe("Too many chats started. Try again in 6 s.");
    clock.advance(999);
    expect((await refused()).retryAfterSeconds).toBe(5); // exactly 5 s
    clock.advance(4_999);
    expect((await refused()).retryAfterSeconds).toBe(1); // 1 ms left
    clock.advance(1);
    await throttle.take("10.0.0.1", INSTANCE);
  });

  it("keeps each address independent, and counts IPv6 clients by their /64 network", async () => {
    const { throttle } = setup({ perAddress: { burst: 2, intervalMs: 1_000 } });
    await throttle.take("10.0.0.1", INSTANCE);
    await throttle.take("10.0.0.1", INSTANCE);
    await refusal(() => throttle.take("10.0.0.1", INSTANCE));
    // The same client over a dual-stack socket.
    await refusal(() => throttle.take("::ffff:10.0.0.1", INSTANCE));
    await throttle.take("10.0.0.2", INSTANCE);
    await throttle.take("10.0.0.2", INSTANCE);
    await throttle.take("2001:db8:1:2::1", INSTANCE);
    await throttle.take("2001:db8:1:2:ffff:ffff:ffff:ffff", INSTANCE);
    await refusal(() => throttle.take("2001:db8:1:2::abcd", INSTANCE));
    await throttle.take("2001:db8:1:3::1", INSTANCE);
  });

  it("keeps the configured instance rate above one chat a millisecond (2,000 a second: two each ms)", async () => {
    const limits = configuredStartChatLimits({
      startChatBurst: 20,
      startChatPerMinute: 20,
      instanceStartChatBurst: 2,
      instanceStartChatPerSecond: 2_000,
    });
    const { clock, throttle } = setup(limits);
    let address = 0;
    const start = () => throttle.take(`10.0.1.${++address}`, INSTANCE);
    await start();
    await start();
    expect((await refusal(start)).retryAfterSeconds).toBe(1);
    clock.advance(1);
    await start();
    await start();
    await refusal(start);
  });

  it("caps the chats started on one instance from all addresses together", async () => {
    const { clock, throttle } = setup({
      perInstance: { burst: 100, intervalMs: 20 },
    });
    expect(DEFAULT_START_CHAT_LIMITS.perInstance).toEqual({ burst: 100, intervalMs: 20 });
    for (let i = 0; i < 100; i++) await throttle.take(`10.0.${i >> 8}.${i & 255}`, INSTANCE);
    const refused = await refusal(() => throttle.take("10.1.0.1", INSTANCE));
    expect(refused.retryAfterSeconds).toBe(1);
    // Another instance has its own ceiling.
    await throttle.take("10.1.0.1", "instance-2");
    clock.advance(20);
    await throttle.take("10.1.0.1", INSTANCE);
    await refusal(() => throttle.take("10.1.0.2", INSTANCE));
    // 50 a second sustained.
    clock.advance(1_000);
    for (let i = 0; i < 50; i++) await throttle.take(`10.2.0.${i}`, INSTANCE);
    await refusal(() => throttle.take("10.3.0.1", INSTANCE));
  });
});

describe("start-chat throttle in memory", () => {
  const setup = (limits: Partial<StartChatLimits>, maxKeys?: number) => {
    const clock = fakeClock();
    const store = new MemoryLimitStore(maxKeys);
    const throttle = new StartChatThrottle({ clock, limits, store });
    const size = () => ({
      addresses: store.size(START_CHAT_ADDRESS_TABLE),
      instances: store.size(START_CHAT_INSTANCE_TABLE),
    });
    return { clock, throttle, size };
  };

  it("holds at most maxKeys addresses, dropping the one used longest ago", async () => {
    const { clock, throttle, size } = setup({ perAddress: { burst: 1, intervalMs: 60_000 } }, 3);
    await throttle.take("10.0.0.1", INSTANCE);
    clock.advance(1);
    await throttle.take("10.0.0.2", INSTANCE);
    clock.advance(1);
    await throttle.take("10.0.0.3", INSTANCE);
    expect(size().addresses).toBe(3);
    clock.advance(1);
    await throttle.take("10.0.0.4", INSTANCE);
    expect(size().addresses).toBe(3);
    // 10.0.0.1 was dropped (its bucket is full again); the others are still empty.
    await throttle.take("10.0.0.1", INSTANCE);
    await refusal(() => throttle.take("10.0.0.3", INSTANCE));
    await refusal(() => throttle.take("10.0.0.4", INSTANCE));
  });

  it("forgets an address once its bucket has filled up again", async () => {
    const { clock, throttle, size } = setup({ perInstance: { burst: 1_000, intervalMs: 1 } });
    for (let i = 0; i < 1_000; i++) await throttle.take(`10.0.${i >> 8}.${i & 255}`, INSTANCE);
    expect(size().addresses).toBe(1_000);
    clock.advance(20 * 3_000 - 1);
    await throttle.take("10.9.9.9", "other");
    expect(size().addresses).toBe(1_001);
    clock.advance(1);
    await throttle.take("10.9.9.8", "other");
    expect(size()).toEqual({ addresses: 2, instances: 1 });
  });
});
