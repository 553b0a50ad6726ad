import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../env.js";
import { AssertTrueException, ExceedDimensionLimitException } from "./errors.js";
import { Metric } from "./metric.js";
import { createTelemetry } from "./telemetry-client.js";
import type { TelemetryOptions } from "./telemetry-client.js";
import { fakeFetch, recordingLogger, settle } from "./test-support/fake-fetch.js";
import type { FakeReply, RecordedRequest } from "./test-support/fake-fetch.js";
import { fakeSharedWorker } from "./test-support/fake-shared-worker.js";

/** The contact centre's telemetry endpoint: its routes are /telemetry/auth, … */
const ENDPOINT = "http://127.0.0.1:8080/telemetry";
const NOW = Date.UTC(2025, 0, 1, 10, 0, 0);

function setup(options: Partial<TelemetryOptions> = {}, reply?: (r: RecordedRequest) => FakeReply) {
  const http = fakeFetch(reply);
  const logger = recordingLogger();
  const telemetry = createTelemetry({
    endpoint: ENDPOINT,
    env: { fetch: http.fetch },
    logger,
    ...options,
  });
  const metricBodies = () =>
    http
      .to("/telemetry/put-metrics")
      .map((r) => r.body as { metricList: Record<string, unknown>[] });
  return { http, logger, telemetry, metricBodies };
}

describe("createTelemetry in the page (docs/product.md §7, §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs in the page when no SharedWorker is supplied, ready at once", () => {
    const { telemetry } = setup();
    expect(telemetry.mode).toBe("in-page");
    expect(telemetry.ready).toBe(true);
  });

  it("a Count metric goes out in namespace chat-widget with dimension WidgetType after 30000 ms", async () => {
    const { telemetry, http, metricBodies } = setup();
    telemetry.addCountMetric("WebsocketConnectionGained");
    vi.advanceTimersByTime(29_999);
    await settle();
    expect(http.requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await settle();
    expect(http.requests[0]!.url).toBe(`${ENDPOINT}/put-metrics`);
    expect(http.requests[0]!.body).toEqual({
      metricNamespace: "chat-widget",
      metricList: [
        {
          metricName: "WebsocketConnectionGained",
          unit: "Count",
          value: 1,
          timestamp: new Date(NOW).toISOString(),
          dimensions: [{ name: "WidgetType", value: "CustomChatWidget" }],
          optionalDimensions: [],
          namespace: "chat-widget",
        },
      ],
    });
    expect(metricBodies()).toHaveLength(1);
  });

  it("30 metrics are sent at once, without waiting for the interval", async () => {
    const { telemetry, metricBodies } = setup();
    for (let i = 0; i < 29; i++) telemetry.addCountMetric("WebsocketIncomingMessage");
    await settle();
    expect(metricBodies()).toHaveLength(0);
    telemetry.addCountMetric("WebsocketIncomingMessage");
    await settle();
    expect(metricBodies()[0]!.metricList).toHaveLength(30);
  });

  it("the WidgetType value and extra dimensions come from the caller", async () => {
    const { telemetry, metricBodies } = setup({ widgetType: "ShopWidget" });
    telemetry.addCountMetric("SendMessage", { Category: "API", ContentType: "text/plain" });
    telemetry.addLatencyMetric("SendMessage", 182, { Category: "API" });
    telemetry.addMetric({
      metricName: "Render",
      unit: "Microseconds",
      value: 5,
      optionalDimensions: { Tab: "" },
    });
    vi.advanceTimersByTime(30_000);
    await settle();
    const [count, latency, render] = metricBodies()[0]!.metricList;
    expect(count!.dimensions).toEqual([
      { name: "WidgetType", value: "ShopWidget" },
      { name: "Category", value: "API" },
      { name: "ContentType", value: "text/plain" },
    ]);
    expect(latency).toMatchObject({
      unit: "Milliseconds",
      value: 182,
      dimensions: [
        { name: "WidgetType", value: "ShopWidget" },
        { name: "Metric", value: "Latency" },
        { name: "Category", value: "API" },
      ],
    });
    expect(render).toMatchObject({
      unit: "Microseconds",
      optionalDimensions: [{ name: "Tab", value: " " }],
    });
  });

  it("a Metric built by the caller is sent as built", async () => {
    const { telemetry, metricBodies } = setup();
    const metric = new Metric({
      metricName: "Custom",
      unit: "Seconds",
      value: 2,
      namespace: "other",
      timestamp: 0,
    });
    telemetry.addMetric(metric);
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(metricBodies()[0]).toMatchObject({
      metricNamespace: "other",
      metricList: [metric.toWire()],
    });
  });

  it("invalid metrics are logged with their exception, never thrown into the caller", () => {
    const { telemetry, logger } = setup();
    expect(() =>
      telemetry.addMetric({ metricName: "X", unit: "Bytes" as never, value: 1 }),
    ).not.toThrow();
    const tenMore = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`D${i}`, i]));
    expect(() => telemetry.addCountMetric("Y", tenMore)).not.toThrow();
    const errors = logger.entries.filter((e) => e.level === "error");
    expect(errors[0]!.args[0]).toBe("Failed to add metric");
    expect(errors[0]!.args[1]).toBeInstanceOf(AssertTrueException);
    expect(errors[1]!.args[1]).toBeInstanceOf(ExceedDimensionLimitException);
    expect((errors[1]!.args[1] as Error).message).toBe(
      "Could not add dimension 'D9'. Metric has maximum 10 dimensions",
    );
  });

  it("workflow events are put every 2000 ms with the widget's data", async () => {
    const { telemetry, http } = setup();
    expect(
      telemetry.addWorkflowEvent({
        workflowType: "Chat",
        event: "Opened",
        instanceId: "c-1",
        data: { a: 1 },
      }),
    ).toBe(true);
    vi.advanceTimersByTime(1_999);
    await settle();
    expect(http.requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await settle();
    expect(http.requests[0]!.url).toBe(`${ENDPOINT}/put-workflow-events`);
    expect(http.requests[0]!.body).toEqual({
      workflowEventList: [
        {
          timestamp: NOW,
          workflowType: "Chat",
          instanceId: "c-1",
          event: "Opened",
          appName: "chat-widget",
          data: [
            { key: "WidgetType", value: "CustomChatWidget" },
            { key: "a", value: "1" },
          ],
        },
      ],
    });
  });

  it("workflow dedupe 200 ms: a repeated step with the same data within 200 ms is dropped", async () => {
    const { telemetry, http } = setup();
    const opened = { workflowType: "Chat", event: "Opened", dedupe: true } as const;
    expect(telemetry.addWorkflowEvent(opened)).toBe(true);
    vi.advanceTimersByTime(200);
    expect(telemetry.addWorkflowEvent(opened)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(telemetry.addWorkflowEvent(opened)).toBe(true);
    expect(telemetry.addWorkflowEvent({ workflowType: "Chat", event: "Opened" })).toBe(true);
    vi.advanceTimersByTime(2_000);
    await settle();
    expect(
      (http.requests[0]!.body as { workflowEventList: unknown[] }).workflowEventList,
    ).toHaveLength(3);
  });

  it("setAuth exchanges auth params for a jwtToken; unsetToken re-authenticates and the next batch carries the new one", async () => {
    let tokens = 0;
    let puts = 0;
    const { telemetry, http } = setup({}, (r) => {
      if (r.url.endsWith("/auth")) return { status: 200, body: { jwtToken: `jwt-${++tokens}` } };
      return { status: 200, body: { unsetToken: ++puts === 1 } };
    });
    telemetry.setAuth({ customer: "c-1" });
    await settle();
    telemetry.addCountMetric("M");
    vi.advanceTimersByTime(30_000);
    await settle();
    telemetry.addCountMetric("N");
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(http.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/telemetry/auth",
      "/telemetry/put-metrics",
      "/telemetry/auth",
      "/telemetry/put-metrics",
    ]);
    const sent = http
      .to("/put-metrics")
      .map(
        (r) => r.body as { authParams: { jwtToken: string }; metricList: { metricName: string }[] },
      );
    expect(sent.map((b) => [b.authParams.jwtToken, b.metricList[0]!.metricName])).toEqual([
      ["jwt-1", "M"],
      ["jwt-2", "N"],
    ]);
  });

  it("putCustom posts to a custom endpoint with custom headers", async () => {
    const { telemetry, http } = setup();
    telemetry.putCustom("https://collector.example/in", { "x-api-key": "abc" }, { hello: 1 });
    await settle();
    expect(http.requests[0]).toMatchObject({
      url: "https://collector.example/in",
      headers: { "x-api-key": "abc" },
      body: { hello: 1 },
    });
  });

  it("setConfig changes what later batches carry", async () => {
    const { telemetry, http } = setup();
    telemetry.setConfig("organizationId", "org-1");
    telemetry.addCountMetric("M");
    vi.advanceTimersByTime(30_000);
    await settle();
    expect((http.requests[0]!.body as { organizationId: string }).organizationId).toBe("org-1");
  });

  it("a dead endpoint (fetch rejecting) only logs: the caller never sees an error", async () => {
    const { telemetry, logger } = setup({}, () => new TypeError("fetch failed"));
    expect(() => {
      for (let i = 0; i < 30; i++) telemetry.addCountMetric("M");
      telemetry.addWorkflowEvent({ workflowType: "Chat", event: "Opened" });
      telemetry.setAuth({});
    }).not.toThrow();
    vi.advanceTimersByTime(2_000);
    await settle();
    expect(logger.messages("error").sort()).toEqual([
      "Put metrics to service failed",
      "Put workflow events to service failed",
      "csm auth failed",
    ]);
  });

  it('a 500 logs "AJAX request failed with status: 500" and "Put metrics to service failed"', async () => {
    const { telemetry, logger } = setup({}, () => ({ status: 500 }));
    telemetry.addCountMetric("M");
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(logger.messages("warn")).toEqual(["AJAX request failed with status: 500"]);
    expect(logger.messages("error")).toEqual(["Put metrics to service failed"]);
  });

  it("a logger that throws does not break the caller either", async () => {
    const throwing: Logger = {
      debug: () => {
        throw new Error("x");
      },
      info: () => {
        throw new Error("x");
      },
      warn: () => {
        throw new Error("x");
      },
      error: () => {
        throw new Error("x");
      },
    };
    const { telemetry } = setup({ logger: throwing }, () => ({ status: 500 }));
    expect(() =>
      telemetry.addMetric({ metricName: "X", unit: "Bad" as never, value: 1 }),
    ).not.toThrow();
    telemetry.addCountMetric("M");
    vi.advanceTimersByTime(30_000);
    await settle();
  });

  it("close flushes what is pending at once, and nothing is sent afterwards", async () => {
    const { telemetry, metricBodies, http } = setup();
    telemetry.addCountMetric("M");
    telemetry.close();
    await settle();
    expect(metricBodies()).toHaveLength(1);
    telemetry.addCountMetric("After");
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(http.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("without an endpoint nothing is sent", async () => {
    const { telemetry, http } = setup({ endpoint: null });
    telemetry.addCountMetric("M");
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(http.requests).toHaveLength(0);
  });

  it("enabled: false sends nothing and starts nothing", async () => {
    const worker = fakeSharedWorker();
    const factory = vi.fn(() => worker);
    const { telemetry, http } = setup({ enabled: false, sharedWorker: factory });
    expect(telemetry.mode).toBe("disabled");
    telemetry.addCountMetric("M");
    telemetry.addAgentCountMetric("A", 1);
    expect(telemetry.addWorkflowEvent({ workflowType: "Chat", event: "E" })).toBe(false);
    telemetry.setAuth({});
    telemetry.putCustom("https://x.example", {}, {});
    telemetry.close();
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(http.requests).toHaveLength(0);
    expect(factory).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
