import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionMetricName, attachSessionMetrics } from "./session-metrics.js";
import type { SessionMetricSource } from "./session-metrics.js";
import { createTelemetry } from "./telemetry-client.js";
import { fakeFetch, settle } from "./test-support/fake-fetch.js";

type Event = keyof SessionMetricSource;

/** A session stand-in with the public subscription methods of a chat session. */
function fakeSession() {
  const listeners = new Map<Event, Set<(...args: unknown[]) => void>>();
  const subscribe = (event: Event) => (cb: (...args: unknown[]) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(cb);
    listeners.set(event, set);
    return () => set.delete(cb);
  };
  const session: SessionMetricSource = {
    onConnectionEstablished: subscribe("onConnectionEstablished"),
    onConnectionLost: subscribe("onConnectionLost"),
    onMessage: subscribe("onMessage"),
    onDeepHeartbeatSuccess: subscribe("onDeepHeartbeatSuccess"),
    onDeepHeartbeatFailure: subscribe("onDeepHeartbeatFailure"),
    onEnded: subscribe("onEnded"),
  };
  const emit = (event: Event, ...args: unknown[]) =>
    listeners.get(event)?.forEach((cb) => cb(...args));
  const count = () => [...listeners.values()].reduce((n, set) => n + set.size, 0);
  return { session, emit, count };
}

describe("session metrics (docs/product.md §7: namespace chat-widget, dimension WidgetType)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ["onConnectionEstablished", "WebsocketConnectionGained"],
    ["onConnectionLost", "WebsocketConnectionLost"],
    ["onMessage", "WebsocketIncomingMessage"],
    ["onDeepHeartbeatSuccess", "WebsocketDeepHeartbeatSuccess"],
    ["onDeepHeartbeatFailure", "WebsocketDeepHeartbeatFailure"],
    ["onEnded", "WebsocketEnded"],
  ] as const)("%s adds the Count metric %s", (event, metricName) => {
    const { session, emit } = fakeSession();
    const addCountMetric = vi.fn();
    attachSessionMetrics(session, { addCountMetric });
    emit(event, { some: "payload" });
    expect(addCountMetric).toHaveBeenCalledExactlyOnceWith(metricName);
  });

  it("names every metric the spec shows", () => {
    expect(Object.values(SessionMetricName).sort()).toEqual([
      "WebsocketConnectionGained",
      "WebsocketConnectionLost",
      "WebsocketDeepHeartbeatFailure",
      "WebsocketDeepHeartbeatSuccess",
      "WebsocketEnded",
      "WebsocketIncomingMessage",
    ]);
  });

  it("detaching unsubscribes from every session event", () => {
    const { session, emit, count } = fakeSession();
    const addCountMetric = vi.fn();
    const detach = attachSessionMetrics(session, { addCountMetric });
    expect(count()).toBe(6);
    detach();
    detach();
    expect(count()).toBe(0);
    emit("onMessage");
    expect(addCountMetric).not.toHaveBeenCalled();
  });

  it("the metrics reach put-metrics in namespace chat-widget with the WidgetType dimension", async () => {
    const http = fakeFetch();
    const telemetry = createTelemetry({
      endpoint: "http://127.0.0.1:8080",
      widgetType: "ChatWidget",
      env: { fetch: http.fetch },
    });
    const { session, emit } = fakeSession();
    attachSessionMetrics(session, telemetry);
    emit("onConnectionEstablished");
    emit("onMessage", {});
    emit("onEnded", {});
    vi.advanceTimersByTime(30_000);
    await settle();
    const body = http.requests[0]!.body as {
      metricNamespace: string;
      metricList: Record<string, unknown>[];
    };
    expect(body.metricNamespace).toBe("chat-widget");
    expect(
      body.metricList.map((m) => [m.metricName, m.unit, m.value, m.namespace, m.dimensions]),
    ).toEqual(
      ["WebsocketConnectionGained", "WebsocketIncomingMessage", "WebsocketEnded"].map((name) => [
        name,
        "Count",
        1,
        "chat-widget",
        [{ name: "WidgetType", value: "ChatWidget" }],
      ]),
    );
  });

  it("a telemetry failure inside a session callback never reaches the session", () => {
    const { session, emit } = fakeSession();
    const telemetry = createTelemetry({
      endpoint: "http://127.0.0.1:8080",
      env: { fetch: () => Promise.reject(new Error("down")) },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    attachSessionMetrics(session, telemetry);
    expect(() => {
      for (let i = 0; i < 40; i++) emit("onMessage", {});
    }).not.toThrow();
  });
});
