import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSweeper } from "./sweeper.js";

describe("startSweeper", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sweeps every interval, skipping a tick while the last sweep is under way", async () => {
    const releases: (() => void)[] = [];
    const sweep = vi.fn(() => new Promise<void>((resolve) => releases.push(resolve)));
    const stop = startSweeper(1000, sweep, () => {});
    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    // Still under way at the next two ticks: no second sweep queued behind it.
    await vi.advanceTimersByTimeAsync(2000);
    expect(sweep).toHaveBeenCalledTimes(1);
    releases[0]!();
    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(2);
    releases[1]!();
    await stop();
  });

  it("reports a failed sweep and sweeps again at the next tick", async () => {
    const errors: unknown[] = [];
    const sweep = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error("store gone"))
      .mockResolvedValue(undefined);
    const stop = startSweeper(1000, sweep, (err) => errors.push(err));
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([new Error("store gone")]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(2);
    expect(errors).toHaveLength(1);
    await stop();
  });

  it("stops: waits for the sweep under way, and sweeps no more", async () => {
    let release = () => {};
    let done = false;
    const sweep = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            done = true;
            resolve();
          };
        }),
    );
    const stop = startSweeper(1000, sweep, () => {});
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sweep).toHaveBeenCalledTimes(1);
  });
});
