import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isServiceError, type ServiceError } from "../errors.js";
import {
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  SIGN_IN_ACCOUNT_TABLE,
  SIGN_IN_ADDRESS_TABLE,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
  type SignInLimits,
} from "./sign-in-throttle.js";
import type { LimitStore } from "../limits/limit-store.js";
import { DEFAULT_MAX_KEYS, MemoryLimitStore } from "../limits/memory-limit-store.js";
import { LIMIT_STORES } from "../limits/test-support/stores.js";

const S = 1000;

function setup(store: LimitStore, limits: Partial<SignInLimits> = {}) {
  const clock = { ms: 0, now: () => clock.ms };
  const throttle = new SignInThrottle({ clock, limits, store });
  /** A wrong password: the attempt is let through and stays counted. */
  const fail = async (username: string, address = "10.0.0.1") => {
    await throttle.begin(username, address);
  };
  /** The throttle's refusal, or undefined when the attempt is let through. */
  const refusal = async (
    username: string,
    address = "10.0.0.1",
  ): Promise<ServiceError | undefined> => {
    try {
      await (await throttle.begin(username, address)).abandoned();
      return undefined;
    } catch (error) {
      if (isServiceError(error)) return error;
      throw error;
    }
  };
  return { clock, throttle, fail, refusal };
}

describe.each(LIMIT_STORES)("SignInThrottle, counting in %s", (_name, openStore) => {
  let store: LimitStore;
  beforeEach(async () => {
    store = await openStore();
  });
  afterEach(() => store.close());

  it("has the documented limits: 5 per account, 20 per address, in 15 minutes, 10,000 keys", async () => {
    expect(SIGN_IN_MAX_FAILURES_PER_ACCOUNT).toBe(5);
    expect(SIGN_IN_MAX_FAILURES_PER_ADDRESS).toBe(20);
    expect(SIGN_IN_WINDOW_MS).toBe(15 * 60 * S);
    expect(DEFAULT_MAX_KEYS).toBe(10_000);
  });

  it("lets 5 failures of an account through, then refuses with 429 ThrottlingException and the seconds to wait", async () => {
    const { fail, refusal } = setup(store);
    for (let i = 0; i < 5; i++) {
      expect(await refusal("kim")).toBeUndefined();
      await fail("kim");
    }
    const refused = (await refusal("kim"))!;
    expect(refused.statusCode).toBe(429);
    expect(refused.type).toBe("ThrottlingException");
    expect(refused.message).toBe("Too many sign-in attempts. Try again in 900 s.");
    expect(refused.retryAfterSeconds).toBe(900);
  });

  it("is a sliding 15-minute window, exact to the millisecond, and refusals do not extend it", async () => {
    const { clock, fail, refusal } = setup(store);
    await fail("kim"); // t = 0
    clock.ms = 100 * S;
    for (let i = 0; i < 4; i++) await fail("kim"); // t = 100 s
    expect((await refusal("kim"))?.retryAfterSeconds).toBe(800);
    clock.ms = 900 * S - 1;
    const last = (await refusal("kim"))!;
    expect(last.retryAfterSeconds).toBe(1);
    expect(last.message).toBe("Too many sign-in attempts. Try again in 1 s.");
    // The failure at t = 0 leaves the window: one more try, then wait for the t = 100 s ones.
    clock.ms = 900 * S;
    expect(await refusal("kim")).toBeUndefined();
    await fail("kim");
    expect((await refusal("kim"))?.retryAfterSeconds).toBe(100);
    clock.ms = 1000 * S - 1;
    expect((await refusal("kim"))?.retryAfterSeconds).toBe(1);
    clock.ms = 1000 * S;
    expect(await refusal("kim")).toBeUndefined();
  });

  it("a successful sign-in clears the account's failures", async () => {
    const { throttle, fail, refusal } = setup(store);
    for (let i = 0; i < 4; i++) await fail("kim");
    await (await throttle.begin("kim", "10.0.0.1")).succeeded();
    for (let i = 0; i < 5; i++) await fail("kim");
    expect((await refusal("kim"))?.type).toBe("ThrottlingException");
  });

  it("counts each account by its username exactly as given", async () => {
    const { fail, refusal } = setup(store);
    for (let i = 0; i < 5; i++) await fail("kim", `10.0.0.${i}`);
    expect(await refusal("kim", "10.9.9.9")).toBeDefined(); // per account, from any address
    expect(await refusal("Kim")).toBeUndefined();
    expect(await refusal("lee")).toBeUndefined();
  });

  it("refuses an address after 20 failures over any usernames; other addresses are unaffected", async () => {
    const { throttle, fail, refusal } = setup(store);
    for (let i = 0; i < 20; i++) await fail(`user${i}`, "10.0.0.1");
    const refused = (await refusal("someone-new", "10.0.0.1"))!;
    expect(refused.statusCode).toBe(429);
    expect(refused.retryAfterSeconds).toBe(900);
    expect(await refusal("someone-new", "10.0.0.2")).toBeUndefined();
    // Signing in elsewhere does not clear the address: it is refused before any check.
    await (await throttle.begin("someone-new", "10.0.0.2")).succeeded();
    expect(await refusal("someone-new", "10.0.0.1")).toBeDefined();
  });

  it("an IPv6 client counts as its /64: guesses spread over its addresses share one count", async () => {
    const { fail, refusal } = setup(store);
    for (let i = 0; i < 20; i++) await fail(`user${i}`, `2001:db8:7:1::${(i + 1).toString(16)}`);
    expect((await refusal("someone-new", "2001:db8:7:1:ffff::1"))?.statusCode).toBe(429);
    expect(await refusal("someone-new", "2001:db8:7:2::1")).toBeUndefined();
  });

  it("a success from an address does not reset the address's other failures", async () => {
    const { throttle, fail, refusal } = setup(store);
    for (let i = 0; i < 19; i++) await fail(`user${i}`, "10.0.0.1");
    await (await throttle.begin("mine", "10.0.0.1")).succeeded(); // takes back only its own attempt
    expect(await refusal("other", "10.0.0.1")).toBeUndefined();
    await fail("other", "10.0.0.1");
    expect(await refusal("another", "10.0.0.1")).toBeDefined();
  });

  it("counts attempts in flight, so a concurrent burst cannot slip past the limit", async () => {
    const { throttle, refusal } = setup(store);
    const pending = await Promise.all(
      Array.from({ length: 5 }, () => throttle.begin("kim", "10.0.0.1")),
    );
    expect(await refusal("kim")).toBeDefined();
    await pending[0]!.abandoned(); // e.g. the store failed: says nothing about the password
    expect(await refusal("kim")).toBeUndefined();
  });
});

describe("SignInThrottle in memory", () => {
  const size = (store: MemoryLimitStore) => ({
    accounts: store.size(SIGN_IN_ACCOUNT_TABLE),
    addresses: store.size(SIGN_IN_ADDRESS_TABLE),
  });

  it("keeps at most maxKeys keys, dropping the one whose last failure is oldest", async () => {
    const store = new MemoryLimitStore(3);
    const { clock, fail, refusal } = setup(store, { perAccount: 1 });
    await fail("a", "1");
    clock.ms += 1;
    await fail("b", "2");
    expect(await refusal("a", "3")).toBeDefined();
    await fail("c", "4");
    await fail("d", "5"); // the table is full: the oldest, "a" (t = 0), makes room
    expect(size(store)).toEqual({ accounts: 3, addresses: 3 });
    expect(await refusal("b", "6")).toBeDefined();
    expect(await refusal("a", "7")).toBeUndefined();
  });

  it("a flood of random usernames from random addresses stays within 10,000 keys, and entries expire", async () => {
    const store = new MemoryLimitStore();
    const { clock, fail } = setup(store);
    for (let i = 0; i < 30_000; i++) {
      await fail(`random-${i}`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 100 === 0) clock.ms += 1;
    }
    expect(size(store)).toEqual({ accounts: 10_000, addresses: 10_000 });
    clock.ms += SIGN_IN_WINDOW_MS;
    await fail("one-more", "10.255.0.1");
    expect(size(store)).toEqual({ accounts: 1, addresses: 1 });
  });
});
