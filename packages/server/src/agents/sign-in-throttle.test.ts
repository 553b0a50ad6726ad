import { describe, expect, it } from "vitest";
import { isServiceError, type ServiceError } from "../errors.js";
import {
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  SIGN_IN_MAX_KEYS,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
  type SignInLimits,
} from "./sign-in-throttle.js";

const S = 1000;

function setup(limits: Partial<SignInLimits> = {}) {
  const clock = { ms: 0, now: () => clock.ms };
  const throttle = new SignInThrottle({ clock, limits });
  /** A wrong password: the attempt is let through and stays counted. */
  const fail = (username: string, address = "10.0.0.1") => {
    throttle.begin(username, address);
  };
  /** The throttle's refusal, or undefined when the attempt is let through. */
  const refusal = (username: string, address = "10.0.0.1"): ServiceError | undefined => {
    try {
      throttle.begin(username, address).abandoned();
      return undefined;
    } catch (error) {
      if (isServiceError(error)) return error;
      throw error;
    }
  };
  return { clock, throttle, fail, refusal };
}

describe("SignInThrottle", () => {
  it("has the documented limits: 5 per account, 20 per address, in 15 minutes, 10,000 keys", () => {
    expect(SIGN_IN_MAX_FAILURES_PER_ACCOUNT).toBe(5);
    expect(SIGN_IN_MAX_FAILURES_PER_ADDRESS).toBe(20);
    expect(SIGN_IN_WINDOW_MS).toBe(15 * 60 * S);
    expect(SIGN_IN_MAX_KEYS).toBe(10_000);
  });

  it("lets 5 failures of an account through, then refuses with 429 ThrottlingException and the seconds to wait", () => {
    const { fail, refusal } = setup();
    for (let i = 0; i < 5; i++) {
      expect(refusal("kim")).toBeUndefined();
      fail("kim");
    }
    const refused = refusal("kim")!;
    expect(refused.statusCode).toBe(429);
    expect(refused.type).toBe("ThrottlingException");
    expect(refused.message).toBe("Too many sign-in attempts. Try again in 900 s.");
    expect(refused.retryAfterSeconds).toBe(900);
  });

  it("is a sliding 15-minute window, exact to the millisecond, and refusals do not extend it", () => {
    const { clock, fail, refusal } = setup();
    fail("kim"); // t = 0
    clock.ms = 100 * S;
    for (let i = 0; i < 4; i++) fail("kim"); // t = 100 s
    expect(refusal("kim")?.retryAfterSeconds).toBe(800);
    clock.ms = 900 * S - 1;
    const last = refusal("kim")!;
    expect(last.retryAfterSeconds).toBe(1);
    expect(last.message).toBe("Too many sign-in attempts. Try again in 1 s.");
    // The failure at t = 0 leaves the window: one more try, then wait for the t = 100 s ones.
    clock.ms = 900 * S;
    expect(refusal("kim")).toBeUndefined();
    fail("kim");
    expect(refusal("kim")?.retryAfterSeconds).toBe(100);
    clock.ms = 1000 * S - 1;
    expect(refusal("kim")?.retryAfterSeconds).toBe(1);
    clock.ms = 1000 * S;
    expect(refusal("kim")).toBeUndefined();
  });

  it("a successful sign-in clears the account's failures", () => {
    const { throttle, fail, refusal } = setup();
    for (let i = 0; i < 4; i++) fail("kim");
    throttle.begin("kim", "10.0.0.1").succeeded();
    for (let i = 0; i < 5; i++) fail("kim");
    expect(refusal("kim")?.type).toBe("ThrottlingException");
  });

  it("counts each account by its username exactly as given", () => {
    const { fail, refusal } = setup();
    for (let i = 0; i < 5; i++) fail("kim", `10.0.0.${i}`);
    expect(refusal("kim", "10.9.9.9")).toBeDefined(); // per account, from any address
    expect(refusal("Kim")).toBeUndefined();
    expect(refusal("lee")).toBeUndefined();
  });

  it("refuses an address after 20 failures over any usernames; other addresses are unaffected", () => {
    const { throttle, fail, refusal } = setup();
    for (let i = 0; i < 20; i++) fail(`user${i}`, "10.0.0.1");
    const refused = refusal("someone-new", "10.0.0.1")!;
    expect(refused.statusCode).toBe(429);
    expect(refused.retryAfterSeconds).toBe(900);
    expect(refusal("someone-new", "10.0.0.2")).toBeUndefined();
    // Signing in elsewhere does not clear the address: it is refused before any check.
    throttle.begin("someone-new", "10.0.0.2").succeeded();
    expect(refusal("someone-new", "10.0.0.1")).toBeDefined();
  });

  it("a success from an address does not reset the address's other failures", () => {
    const { throttle, fail, refusal } = setup();
    for (let i = 0; i < 19; i++) fail(`user${i}`, "10.0.0.1");
    throttle.begin("mine", "10.0.0.1").succeeded(); // takes back only its own attempt
    expect(refusal("other", "10.0.0.1")).toBeUndefined();
    fail("other", "10.0.0.1");
    expect(refusal("another", "10.0.0.1")).toBeDefined();
  });

  it("counts attempts in flight, so a concurrent burst cannot slip past the limit", () => {
    const { throttle, refusal } = setup();
    const pending = Array.from({ length: 5 }, () => throttle.begin("kim", "10.0.0.1"));
    expect(refusal("kim")).toBeDefined();
    pending[0]!.abandoned(); // e.g. the store failed: says nothing about the password
    expect(refusal("kim")).toBeUndefined();
  });

  it("keeps at most maxKeys keys, dropping the one whose last failure is oldest", () => {
    const { clock, fail, refusal, throttle } = setup({ perAccount: 1, maxKeys: 3 });
    fail("a", "1");
    clock.ms += 1;
    fail("b", "2");
    expect(refusal("a", "3")).toBeDefined();
    fail("c", "4");
    fail("d", "5"); // the table is full: the oldest, "a" (t = 0), makes room
    expect(throttle.size).toEqual({ accounts: 3, addresses: 3 });
    expect(refusal("b", "6")).toBeDefined();
    expect(refusal("a", "7")).toBeUndefined();
  });

  it("a flood of random usernames from random addresses stays within 10,000 keys, and entries expire", () => {
    const { clock, fail, throttle } = setup();
    for (let i = 0; i < 30_000; i++) {
      fail(`random-${i}`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 100 === 0) clock.ms += 1;
    }
    expect(throttle.size).toEqual({ accounts: 10_000, addresses: 10_000 });
    clock.ms += SIGN_IN_WINDOW_MS;
    fail("one-more", "10.255.0.1");
    expect(throttle.size).toEqual({ accounts: 1, addresses: 1 });
  });
});
