import type { WireMetric, WireWorkflowEvent } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Batcher, DEFAULT_BATCH_SETTINGS } from "./batcher.js";

const timers = {
  setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
  clearInterval: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
};

function metric(
  name: string,
  namespace = "chat-widget",
  extra: Partial<WireMetric> = {},
): WireMetric {
  return {
    metricName: name,
    unit: "Count",
    value: 1,
    timestamp: new Date(Date.now()).toISOString(),
    dimensions: [],
    optionalDimensions: [],
    namespace,
    ...extra,
  };
}

function workflowEvent(event: string): WireWorkflowEvent {
  return { timestamp: Date.now(), workflowType: "Chat", event, data: [] };
}

function setup() {
  const putMetrics = vi.fn<(namespace: string, metrics: WireMetric[]) => void>();
  const putWorkflowEvents = vi.fn<(events: WireWorkflowEvent[]) => void>();
  const batcher = new Batcher(timers, { putMetrics, putWorkflowEvents });
  return { batcher, putMetrics, putWorkflowEvents };
}

describe("Batcher (docs/product.md §9: batches of 30 metrics flushed every 30000 ms; 30 workflow events flushed every 2000 ms)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2025, 0, 1));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("has the spec's defaults", () => {
    expect(DEFAULT_BATCH_SETTINGS).toEqual({
      maxMetricsSize: 30,
      maxWorkflowEventsSize: 30,
      putMetricsIntervalMs: 30_000,
      putWorkflowEventsIntervalMs: 2_000,
    });
  });

  it("a namespace's list is flushed as soon as it reaches 30 metrics", () => {
    const { batcher, putMetrics } = setup();
    batcher.start();
    for (let i = 1; i <= 29; i++) batcher.addMetric(metric(`M${i}`));
    expect(putMetrics).not.toHaveBeenCalled();
    batcher.addMetric(metric("M30"));
    expect(putMetrics).toHaveBeenCalledTimes(1);
    const [namespace, list] = putMetrics.mock.calls[0]!;
    expect(namespace).toBe("chat-widget");
    expect(list.map((m) => m.metricName)).toEqual(
      Array.from({ length: 30 }, (_, i) => `M${i + 1}`),
    );
    batcher.addMetric(metric("M31"));
    expect(putMetrics).toHaveBeenCalledTimes(1);
  });

  it("each namespace is counted and sent on its own", () => {
    const { batcher, putMetrics } = setup();
    for (let i = 0; i < 29; i++) batcher.addMetric(metric("A", "ns-a"));
    for (let i = 0; i < 29; i++) batcher.addMetric(metric("B", "ns-b"));
    expect(putMetrics).not.toHaveBeenCalled();
    batcher.addMetric(metric("B", "ns-b"));
    expect(putMetrics).toHaveBeenCalledTimes(1);
    expect(putMetrics.mock.calls[0]![0]).toBe("ns-b");
  });

  it("all non-empty metric lists are flushed every 30000 ms", () => {
    const { batcher, putMetrics } = setup();
    batcher.start();
    batcher.addMetric(metric("A", "ns-a"));
    batcher.addMetric(metric("B", "ns-b"));
    vi.advanceTimersByTime(29_999);
    expect(putMetrics).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(putMetrics.mock.calls.map((c) => c[0])).toEqual(["ns-a", "ns-b"]);
    vi.advanceTimersByTime(30_000);
    expect(putMetrics).toHaveBeenCalledTimes(2);
    batcher.addMetric(metric("C"));
    vi.advanceTimersByTime(30_000);
    expect(putMetrics).toHaveBeenCalledTimes(3);
  });

  it("workflow events are flushed every 2000 ms", () => {
    const { batcher, putWorkflowEvents } = setup();
    batcher.start();
    batcher.addWorkflowEvent(workflowEvent("Opened"));
    batcher.addWorkflowEvent(workflowEvent("Closed"));
    vi.advanceTimersByTime(1_999);
    expect(putWorkflowEvents).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(putWorkflowEvents).toHaveBeenCalledTimes(1);
    expect(putWorkflowEvents.mock.calls[0]![0].map((e) => e.event)).toEqual(["Opened", "Closed"]);
    vi.advanceTimersByTime(2_000);
    expect(putWorkflowEvents).toHaveBeenCalledTimes(1);
  });

  it("workflow events are also flushed as soon as 30 are waiting", () => {
    const { batcher, putWorkflowEvents } = setup();
    for (let i = 0; i < 29; i++) batcher.addWorkflowEvent(workflowEvent(`E${i}`));
    expect(putWorkflowEvents).not.toHaveBeenCalled();
    batcher.addWorkflowEvent(workflowEvent("E29"));
    expect(putWorkflowEvents).toHaveBeenCalledTimes(1);
    expect(putWorkflowEvents.mock.calls[0]![0]).toHaveLength(30);
  });

  it("start flushes what was queued before it, and starts one set of timers however often it is called", () => {
    const { batcher, putMetrics } = setup();
    batcher.addMetric(metric("Early"));
    batcher.start();
    expect(putMetrics).toHaveBeenCalledTimes(1);
    batcher.start();
    batcher.addMetric(metric("Later"));
    vi.advanceTimersByTime(30_000);
    expect(putMetrics).toHaveBeenCalledTimes(2);
  });

  it("stop ends the interval flushes", () => {
    const { batcher, putMetrics } = setup();
    batcher.start();
    batcher.stop();
    batcher.addMetric(metric("A"));
    vi.advanceTimersByTime(60_000);
    expect(putMetrics).not.toHaveBeenCalled();
    expect(batcher.running).toBe(false);
  });

  it("batch settings can be overridden (positive numbers only)", () => {
    const { batcher, putMetrics } = setup();
    batcher.configure({ maxMetricsSize: 2, putMetricsIntervalMs: 5_000, maxWorkflowEventsSize: 0 });
    batcher.start();
    batcher.addMetric(metric("A"));
    batcher.addMetric(metric("B"));
    expect(putMetrics).toHaveBeenCalledTimes(1);
    batcher.addMetric(metric("C"));
    vi.advanceTimersByTime(5_000);
    expect(putMetrics).toHaveBeenCalledTimes(2);
  });

  it("a metric with dedupeOptions is dropped if the last one with the same namespace-metricName-unit-context is younger than dedupeIntervalMs", () => {
    const { batcher, putMetrics } = setup();
    const dedupe = (context?: string) =>
      metric("Click", "chat-widget", {
        dedupeOptions: { dedupeIntervalMs: 1_000, ...(context ? { context } : {}) },
      });
    expect(batcher.addMetric(dedupe())).toBe(true);
    vi.advanceTimersByTime(999);
    expect(batcher.addMetric(dedupe())).toBe(false);
    expect(batcher.addMetric(dedupe("tab-2"))).toBe(true);
    expect(batcher.addMetric(metric("Scroll"))).toBe(true);
    vi.advanceTimersByTime(1);
    expect(batcher.addMetric(dedupe())).toBe(true);
    batcher.flush();
    expect(putMetrics.mock.calls[0]![1]).toHaveLength(4);
  });
});
