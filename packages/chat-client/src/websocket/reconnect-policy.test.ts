import { describe, expect, it } from "vitest";
import { createReconnectPolicy } from "./reconnect-policy.js";

const policyWith = (r: number) => createReconnectPolicy({ random: () => r });

describe("reconnect policy", () => {
  it.each([
    // attempt, no jitter (random 0.5), -30 % (random 0), +30 % (random → 1)
    [0, 1000, 700, 1300],
    [1, 2000, 1400, 2600],
    [2, 4000, 2800, 5200],
    [3, 8000, 5600, 10400],
    [4, 16000, 11200, 20800],
    [5, 30000, 21000, 30000],
    [6, 30000, 21000, 30000],
    [20, 30000, 21000, 30000],
  ])(
    "exponential backoff starting at 1 s, doubling, capped at 30 s, 30%% jitter: attempt %i",
    (attempt, middle, low, high) => {
      const ctx = { attempt, elapsedMs: 0 };
      const validity = { urlValidityMs: Number.POSITIVE_INFINITY };
      expect(createReconnectPolicy({ random: () => 0.5, ...validity }).nextDelayMs(ctx)).toBe(
        middle,
      );
      expect(createReconnectPolicy({ random: () => 0, ...validity }).nextDelayMs(ctx)).toBe(low);
      expect(createReconnectPolicy({ random: () => 0.9999999, ...validity }).nextDelayMs(ctx)).toBe(
        high,
      );
    },
  );

  it("retries the same URL only while now + delay ≤ fetchTime + 85 s", () => {
    expect(policyWith(0.5).nextDelayMs({ attempt: 0, elapsedMs: 84_000 })).toBe(1000);
    expect(policyWith(0.5).nextDelayMs({ attempt: 0, elapsedMs: 84_001 })).toBeNull();
    expect(policyWith(0.5).nextDelayMs({ attempt: 5, elapsedMs: 55_000 })).toBe(30_000);
    expect(policyWith(0.5).nextDelayMs({ attempt: 5, elapsedMs: 55_001 })).toBeNull();
  });

  it("takes its randomness only from the injected source", () => {
    const draws: number[] = [];
    const policy = createReconnectPolicy({
      random: () => {
        draws.push(0.25);
        return 0.25;
      },
    });
    expect(policy.nextDelayMs({ attempt: 1, elapsedMs: 0 })).toBe(1700);
    expect(draws).toHaveLength(1);
  });
});
