import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveEnv } from "../env.js";
import { createNetworkMonitor } from "./network-monitor.js";

describe("network monitor", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("Network check every 250 ms: a change of the online flag is seen at the next 250 ms check", () => {
    let online = true;
    const seen: string[] = [];
    const monitor = createNetworkMonitor({
      env: resolveEnv({ isOnline: () => online }),
      onOnline: () => seen.push(`online@${Date.now()}`),
      onOffline: () => seen.push(`offline@${Date.now()}`),
    });
    monitor.start();
    vi.advanceTimersByTime(100);
    online = false;
    vi.advanceTimersByTime(149);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(["offline@250"]);
    online = true;
    vi.advanceTimersByTime(250);
    expect(seen).toEqual(["offline@250", "online@500"]);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(2);
    monitor.stop();
    online = false;
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(2);
  });
});
