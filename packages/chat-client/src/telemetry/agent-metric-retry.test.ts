import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AGENT_METRIC_MAX_RETRIES,
  AGENT_METRIC_RETRY_INTERVAL_MS,
  AgentMetricRetry,
} from "./agent-metric-retry.js";
import type { AgentCount } from "./agent-metric-retry.js";

function setup(readyAt: number | null) {
  const start = Date.now();
  const publish = vi.fn<(m: AgentCount) => void>();
  const onGiveUp = vi.fn<(dropped: AgentCount[]) => void>();
  const retry = new AgentMetricRetry({
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    isReady: () => readyAt !== null && Date.now() - start >= readyAt,
    publish,
    onGiveUp,
  });
  return { retry, publish, onGiveUp };
}

describe("agent metric retry (docs/product.md §9: up to 5 times, every 3 s)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("has the spec's constants", () => {
    expect(AGENT_METRIC_MAX_RETRIES).toBe(5);
    expect(AGENT_METRIC_RETRY_INTERVAL_MS).toBe(3_000);
  });

  it("publishes at once when telemetry is ready", () => {
    const { retry, publish } = setup(0);
    retry.add({ metricName: "CREATE_PARTICIPANT_CONACK_CALL_COUNT", count: 1 });
    expect(publish).toHaveBeenCalledWith({
      metricName: "CREATE_PARTICIPANT_CONACK_CALL_COUNT",
      count: 1,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("not ready: retries every 3000 ms and publishes at the first retry that finds it ready", () => {
    const { retry, publish } = setup(7_000);
    retry.add({ metricName: "A", count: 1 });
    retry.add({ metricName: "B", count: 2 });
    vi.advanceTimersByTime(8_999);
    expect(publish).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(publish.mock.calls).toEqual([
      [{ metricName: "A", count: 1 }],
      [{ metricName: "B", count: 2 }],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the 5th retry (at 15000 ms) is the last chance", () => {
    const { retry, publish, onGiveUp } = setup(14_999);
    retry.add({ metricName: "A", count: 1 });
    vi.advanceTimersByTime(14_999);
    expect(publish).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(publish).toHaveBeenCalledTimes(1);
    expect(onGiveUp).not.toHaveBeenCalled();
  });

  it("still not ready after 5 retries: the metrics are dropped and retrying stops", () => {
    const { retry, publish, onGiveUp } = setup(null);
    retry.add({ metricName: "A", count: 1 });
    vi.advanceTimersByTime(14_999);
    expect(onGiveUp).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onGiveUp).toHaveBeenCalledWith([{ metricName: "A", count: 1 }]);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(publish).not.toHaveBeenCalled();
  });

  it("a metric added while others wait keeps the order and does not skip the queue", () => {
    let ready = false;
    const publish = vi.fn<(m: AgentCount) => void>();
    const retry = new AgentMetricRetry({
      timers: {
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as never),
      },
      isReady: () => ready,
      publish,
      onGiveUp: () => {},
    });
    retry.add({ metricName: "First", count: 1 });
    ready = true;
    retry.add({ metricName: "Second", count: 1 });
    expect(publish).not.toHaveBeenCalled();
    vi.advanceTimersByTime(3_000);
    expect(publish.mock.calls.map((c) => c[0].metricName)).toEqual(["First", "Second"]);
  });

  it("cancel drops what waits and clears the timer", () => {
    const { retry, publish } = setup(null);
    retry.add({ metricName: "A", count: 1 });
    retry.cancel();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(20_000);
    expect(publish).not.toHaveBeenCalled();
  });
});
