import type { SessionMetricSource, Telemetry } from "@chat-widget/chat-client";
import { attachSessionMetrics } from "@chat-widget/chat-client";
import { describe, expect, it, vi } from "vitest";
import { fakeLogger } from "../test-support/fakes.js";
import type { TelemetryModule } from "./contract.js";
import { createWidgetTelemetry, TELEMETRY_FAILED } from "./widget-telemetry.js";

type Cb = (...args: unknown[]) => void;

function fakeSession() {
  const callbacks: Record<string, Set<Cb>> = {};
  const on = (name: string) => (cb: Cb) => {
    (callbacks[name] ??= new Set()).add(cb);
    return () => callbacks[name]!.delete(cb);
  };
  const session: SessionMetricSource = {
    onConnectionEstablished: on("established"),
    onConnectionLost: on("lost"),
    onMessage: on("message"),
    onDeepHeartbeatSuccess: on("heartbeatSuccess"),
    onDeepHeartbeatFailure: on("heartbeatFailure"),
    onEnded: on("ended"),
  };
  const emit = (name: string) => callbacks[name]?.forEach((cb) => cb({}));
  const listeners = () => Object.values(callbacks).reduce((n, set) => n + set.size, 0);
  return { session, emit, listeners };
}

function fakeTelemetry() {
  return {
    addCountMetric: vi.fn<Telemetry["addCountMetric"]>(),
    close: vi.fn<Telemetry["close"]>(),
  };
}

function setup(options: { enabled?: boolean; module?: "ok" | "missing" | "throws" } = {}) {
  const logger = fakeLogger();
  const telemetry = fakeTelemetry();
  const createTelemetry = vi.fn(() => telemetry as unknown as Telemetry);
  const module = { createTelemetry, attachSessionMetrics } as unknown as TelemetryModule;
  let release: (m: TelemetryModule | null) => void = () => {};
  const load = vi.fn(
    () =>
      new Promise<TelemetryModule | null>((resolve, reject) => {
        if (options.module === "throws") reject(new Error("blocked"));
        else release = resolve;
      }),
  );
  const pageHide: (() => void)[] = [];
  const widget = createWidgetTelemetry({
    enabled: options.enabled ?? true,
    endpoint: "http://127.0.0.1:8080",
    logger,
    load,
    onPageHide: (cb) => pageHide.push(cb),
  });
  const loaded = async () => {
    release(options.module === "missing" ? null : module);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { widget, load, loaded, telemetry, createTelemetry, logger, pageHide };
}

describe("telemetry in the widget: the session publishes its websocket metrics", () => {
  it("the telemetry script is loaded only once a chat session exists, and once per page", async () => {
    const t = setup();
    expect(t.load).not.toHaveBeenCalled();
    t.widget.attach(fakeSession().session);
    t.widget.attach(fakeSession().session);
    expect(t.load).toHaveBeenCalledTimes(1);
    await t.loaded();
    expect(t.createTelemetry).toHaveBeenCalledTimes(1);
    expect(t.createTelemetry).toHaveBeenCalledWith(
      expect.objectContaining({ endpoint: "http://127.0.0.1:8080" }),
    );
  });

  it("events before the script has loaded are counted once it has (the first connection is not lost)", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session);
    s.emit("established");
    s.emit("message");
    s.emit("message");
    expect(t.telemetry.addCountMetric).not.toHaveBeenCalled();
    await t.loaded();
    s.emit("ended");
    expect(t.telemetry.addCountMetric.mock.calls.map((c) => c[0]).sort()).toEqual([
      "WebsocketConnectionGained",
      "WebsocketEnded",
      "WebsocketIncomingMessage",
      "WebsocketIncomingMessage",
    ]);
  });

  it("the returned function stops counting and unsubscribes from the session", async () => {
    const t = setup();
    const s = fakeSession();
    const detach = t.widget.attach(s.session);
    await t.loaded();
    detach();
    s.emit("message");
    expect(t.telemetry.addCountMetric).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("telemetry is closed on pagehide", async () => {
    const t = setup();
    t.widget.attach(fakeSession().session);
    await t.loaded();
    for (const cb of t.pageHide) cb();
    expect(t.telemetry.close).toHaveBeenCalledTimes(1);
  });

  it('data-telemetry="off": nothing is loaded or counted', () => {
    const t = setup({ enabled: false });
    const s = fakeSession();
    t.widget.attach(s.session);
    expect(t.load).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("a script that does not load only logs; the session's events are let go", async () => {
    const t = setup({ module: "missing" });
    const s = fakeSession();
    t.widget.attach(s.session);
    await t.loaded();
    expect(t.createTelemetry).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("telemetry failures never break a chat: a throwing load or session is logged", async () => {
    const t = setup({ module: "throws" });
    const s = fakeSession();
    expect(() => t.widget.attach(s.session)).not.toThrow();
    await t.loaded();
    expect(t.logger.warn).toHaveBeenCalledWith(TELEMETRY_FAILED, expect.any(Error));
    const broken = { onConnectionEstablished: () => {} } as unknown as SessionMetricSource;
    expect(() => t.widget.attach(broken)).not.toThrow();
  });
});
