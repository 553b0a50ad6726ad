import type { SessionMetricSource, Telemetry } from "@chat-widget/chat-client";
import { attachSessionMetrics, createTelemetry } from "@chat-widget/chat-client";
import { afterEach, describe, expect, it, vi } from "vitest";
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
    setAuth: vi.fn<Telemetry["setAuth"]>(),
    close: vi.fn<Telemetry["close"]>(),
  };
}
type FakeTelemetry = ReturnType<typeof fakeTelemetry>;
const counted = (t: FakeTelemetry) => t.addCountMetric.mock.calls.map((c) => c[0]);

function setup(
  options: {
    enabled?: boolean;
    module?: "ok" | "missing" | "throws";
    useSharedWorker?: boolean;
  } = {},
) {
  const logger = fakeLogger();
  // The first telemetry of the page, and the one opened after a back/forward-cache return.
  const telemetries = [fakeTelemetry(), fakeTelemetry()];
  const createTelemetry = vi.fn(
    () => telemetries[createTelemetry.mock.calls.length - 1] as unknown as Telemetry,
  );
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
  const pageRestore: (() => void)[] = [];
  const widget = createWidgetTelemetry({
    enabled: options.enabled ?? true,
    useSharedWorker: options.useSharedWorker,
    endpoint: "http://127.0.0.1:8080",
    logger,
    load,
    onPageHide: (cb) => pageHide.push(cb),
    onPageRestore: (cb) => pageRestore.push(cb),
  });
  const hide = () => pageHide.forEach((cb) => cb());
  const restore = () => pageRestore.forEach((cb) => cb());
  const loaded = async () => {
    release(options.module === "missing" ? null : module);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  };
  const [telemetry, reopened] = telemetries as [FakeTelemetry, FakeTelemetry];
  return { widget, load, loaded, telemetry, reopened, createTelemetry, logger, hide, restore };
}

describe("telemetry in the widget: the session publishes its websocket metrics", () => {
  it("the telemetry script is loaded only once a chat session exists, and once per page", async () => {
    const t = setup();
    expect(t.load).not.toHaveBeenCalled();
    t.widget.attach(fakeSession().session, "pt-1");
    t.widget.attach(fakeSession().session, "pt-1");
    expect(t.load).toHaveBeenCalledTimes(1);
    await t.loaded();
    expect(t.createTelemetry).toHaveBeenCalledTimes(1);
    expect(t.createTelemetry).toHaveBeenCalledWith(
      expect.objectContaining({ endpoint: "http://127.0.0.1:8080", useSharedWorker: true }),
    );
  });

  it("runs in the page, never in a SharedWorker, when told so (a page with a strict CSP)", async () => {
    const t = setup({ useSharedWorker: false });
    t.widget.attach(fakeSession().session, "pt-1");
    await t.loaded();
    expect(t.createTelemetry).toHaveBeenCalledWith(
      expect.objectContaining({ useSharedWorker: false }),
    );
  });

  it("events before the script has loaded are counted once it has (the first connection is not lost)", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
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
    const detach = t.widget.attach(s.session, "pt-1");
    await t.loaded();
    detach();
    s.emit("message");
    expect(t.telemetry.addCountMetric).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("telemetry is closed on pagehide", async () => {
    const t = setup();
    t.widget.attach(fakeSession().session, "pt-1");
    await t.loaded();
    t.hide();
    expect(t.telemetry.close).toHaveBeenCalledTimes(1);
  });

  it('data-telemetry="off": nothing is loaded or counted', () => {
    const t = setup({ enabled: false });
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    expect(t.load).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("a script that does not load only logs; the session's events are let go", async () => {
    const t = setup({ module: "missing" });
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    await t.loaded();
    expect(t.createTelemetry).not.toHaveBeenCalled();
    expect(s.listeners()).toBe(0);
  });

  it("telemetry failures never break a chat: a throwing load or session is logged", async () => {
    const t = setup({ module: "throws" });
    const s = fakeSession();
    expect(() => t.widget.attach(s.session, "pt-1")).not.toThrow();
    await t.loaded();
    expect(t.logger.warn).toHaveBeenCalledWith(TELEMETRY_FAILED, expect.any(Error));
    const broken = { onConnectionEstablished: () => {} } as unknown as SessionMetricSource;
    expect(() => t.widget.attach(broken, "pt-1")).not.toThrow();
  });
});

describe("telemetry is authenticated with the chat's participant token", () => {
  it("the page's telemetry is given the session's token once, and a later chat's token when one starts", async () => {
    const t = setup();
    t.widget.attach(fakeSession().session, "pt-1");
    expect(t.telemetry.setAuth).not.toHaveBeenCalled();
    await t.loaded();
    expect(t.telemetry.setAuth.mock.calls).toEqual([[{ participantToken: "pt-1" }]]);
    t.widget.attach(fakeSession().session, "pt-1");
    await t.loaded();
    expect(t.telemetry.setAuth).toHaveBeenCalledTimes(1);
    t.widget.attach(fakeSession().session, "pt-2");
    await t.loaded();
    expect(t.telemetry.setAuth.mock.calls).toEqual([
      [{ participantToken: "pt-1" }],
      [{ participantToken: "pt-2" }],
    ]);
  });

  it("a telemetry reopened after the back/forward cache is given the latest token", async () => {
    const t = setup();
    t.widget.attach(fakeSession().session, "pt-1");
    await t.loaded();
    t.hide();
    t.restore();
    expect(t.reopened.setAuth.mock.calls).toEqual([[{ participantToken: "pt-1" }]]);
  });
});

describe("telemetry after a return from the back/forward cache", () => {
  it("events after pagehide are not counted into the closed telemetry", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    await t.loaded();
    t.hide();
    s.emit("message");
    expect(t.telemetry.addCountMetric).not.toHaveBeenCalled();
    expect(t.reopened.addCountMetric).not.toHaveBeenCalled();
  });

  it("a restored page opens a new telemetry and the chat's session is counted into it again", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    await t.loaded();
    s.emit("message");
    t.hide();
    t.restore();
    expect(t.createTelemetry).toHaveBeenCalledTimes(2);
    s.emit("established");
    s.emit("message");
    expect(counted(t.telemetry)).toEqual(["WebsocketIncomingMessage"]);
    expect(counted(t.reopened)).toEqual(["WebsocketConnectionGained", "WebsocketIncomingMessage"]);
    // A session created after the return is counted too; the script is not loaded again.
    const later = fakeSession();
    t.widget.attach(later.session, "pt-1");
    await t.loaded();
    later.emit("ended");
    expect(counted(t.reopened)).toContain("WebsocketEnded");
    expect(t.load).toHaveBeenCalledTimes(1);
  });

  it("the reopened telemetry is closed when the page is hidden again", async () => {
    const t = setup();
    t.widget.attach(fakeSession().session, "pt-1");
    await t.loaded();
    t.hide();
    t.restore();
    t.restore();
    expect(t.createTelemetry).toHaveBeenCalledTimes(2);
    t.hide();
    expect(t.telemetry.close).toHaveBeenCalledTimes(1);
    expect(t.reopened.close).toHaveBeenCalledTimes(1);
  });

  it("a page hidden before the telemetry script loaded opens its telemetry on the return", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    t.hide();
    await t.loaded();
    expect(t.createTelemetry).not.toHaveBeenCalled();
    t.restore();
    expect(t.createTelemetry).toHaveBeenCalledTimes(1);
    s.emit("message");
    expect(counted(t.telemetry)).toEqual(["WebsocketIncomingMessage"]);
  });

  it("a telemetry that cannot be reopened only logs", async () => {
    const t = setup();
    const s = fakeSession();
    t.widget.attach(s.session, "pt-1");
    await t.loaded();
    t.hide();
    t.createTelemetry.mockImplementationOnce(() => {
      throw new Error("no worker");
    });
    expect(() => t.restore()).not.toThrow();
    expect(t.logger.warn).toHaveBeenCalledWith(TELEMETRY_FAILED, expect.any(Error));
    expect(() => s.emit("message")).not.toThrow();
  });
});

describe("telemetry after a return from the back/forward cache, with the chat client's telemetry", () => {
  afterEach(() => vi.useRealTimers());

  it("pagehide flushes the batch at once; after the return the next batch goes out 30000 ms later", async () => {
    vi.useFakeTimers();
    const posts: { url: string; metricNames: string[]; jwtToken?: unknown }[] = [];
    const auths: unknown[] = [];
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as {
        metricList?: { metricName: string }[];
        authParams?: { jwtToken?: unknown };
      };
      if (url.endsWith("/auth")) {
        auths.push(body.authParams);
        return new Response(JSON.stringify({ jwtToken: `jwt-${auths.length}` }), { status: 200 });
      }
      posts.push({
        url,
        metricNames: (body.metricList ?? []).map((m) => m.metricName),
        jwtToken: body.authParams?.jwtToken,
      });
      return new Response("{}", { status: 200 });
    });
    const module: TelemetryModule = {
      // The real telemetry, run in the page with the test's fetch (timers are the fake ones).
      createTelemetry: (options) =>
        createTelemetry({ ...options, useSharedWorker: false, env: { fetch } }),
      attachSessionMetrics,
    };
    const pageHide: (() => void)[] = [];
    const pageRestore: (() => void)[] = [];
    const widget = createWidgetTelemetry({
      enabled: true,
      endpoint: "http://127.0.0.1:8080/telemetry",
      logger: fakeLogger(),
      load: async () => module,
      onPageHide: (cb) => pageHide.push(cb),
      onPageRestore: (cb) => pageRestore.push(cb),
    });
    const s = fakeSession();
    widget.attach(s.session, "pt-1");
    await vi.advanceTimersByTimeAsync(0);
    s.emit("established");
    pageHide.forEach((cb) => cb());
    await vi.advanceTimersByTimeAsync(0);
    expect(auths).toEqual([{ participantToken: "pt-1" }]);
    expect(posts).toEqual([
      {
        url: "http://127.0.0.1:8080/telemetry/put-metrics",
        metricNames: ["WebsocketConnectionGained"],
        jwtToken: "jwt-1",
      },
    ]);
    pageRestore.forEach((cb) => cb());
    s.emit("lost");
    s.emit("established");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts[1]?.metricNames).toEqual(["WebsocketConnectionLost", "WebsocketConnectionGained"]);
    // The reopened telemetry authenticated again with the chat's token.
    expect(auths).toEqual([{ participantToken: "pt-1" }, { participantToken: "pt-1" }]);
    expect(posts[1]?.jwtToken).toBe("jwt-2");
  });
});
