import type { WireMetric } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveEnv } from "../env.js";
import { fakeFetch } from "./test-support/fake-fetch.js";
import type { FakeReply, RecordedRequest } from "./test-support/fake-fetch.js";
import { connectPage, turns, waitUntil } from "./test-support/message-pages.js";
import type { TestPage } from "./test-support/message-pages.js";
import { createTelemetryHost } from "./worker-host.js";
import type { TelemetryWorkerConfig, WorkerToPageMessage } from "./worker-protocol.js";

const BASE = "https://telemetry.example/prod";
const config: TelemetryWorkerConfig = { namespace: "chat-widget", endpointUrl: BASE };

function metric(name: string): WireMetric {
  return {
    metricName: name,
    unit: "Count",
    value: 1,
    timestamp: new Date().toISOString(),
    dimensions: [{ name: "WidgetType", value: "CustomChatWidget" }],
    optionalDimensions: [],
    namespace: "chat-widget",
  };
}

const pages: TestPage[] = [];
function setup(reply?: (r: RecordedRequest) => FakeReply) {
  const http = fakeFetch(reply);
  const host = createTelemetryHost(resolveEnv({ fetch: http.fetch }));
  const open = () => {
    const page = connectPage(host);
    pages.push(page);
    return page;
  };
  const configure = async (page: TestPage, cfg: TelemetryWorkerConfig = config) => {
    page.post({ type: "CONFIG", portId: null, message: cfg });
    return (await page.next((m) => m.type === "CONFIG")) as Extract<
      WorkerToPageMessage,
      { type: "CONFIG" }
    >;
  };
  return { http, host, open, configure };
}

describe("telemetry worker host, driven over MessageChannel ports (docs/protocol.md §8.2)", () => {
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
  });
  afterEach(() => {
    for (const page of pages.splice(0)) page.close();
    vi.useRealTimers();
  });

  it("answers CONFIG with the page's port id, counting from 1", async () => {
    const { open, configure, host } = setup();
    expect(await configure(open())).toEqual({ type: "CONFIG", portId: 1 });
    expect(await configure(open())).toEqual({ type: "CONFIG", portId: 2 });
    expect(host.portCount).toBe(2);
  });

  it("METRIC messages are batched and put every 30000 ms to {endpoint}/put-metrics", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({ type: "METRIC", portId, message: metric("WebsocketConnectionGained") });
    page.post({ type: "METRIC", portId, message: metric("WebsocketIncomingMessage") });
    await turns();
    vi.advanceTimersByTime(29_999);
    await turns();
    expect(http.requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await waitUntil(() => http.requests.length === 1);
    expect(http.requests[0]!.url).toBe(`${BASE}/put-metrics`);
    expect(http.requests[0]!.body).toMatchObject({
      metricNamespace: "chat-widget",
      metricList: [metric("WebsocketConnectionGained"), metric("WebsocketIncomingMessage")].map(
        (m) => ({
          ...m,
          timestamp: expect.any(String),
        }),
      ),
    });
  });

  it("metrics from several pages share one batch, flushed at 30", async () => {
    const { open, configure, http } = setup();
    const a = open();
    const b = open();
    const idA = (await configure(a)).portId;
    const idB = (await configure(b)).portId;
    for (let i = 0; i < 15; i++) a.post({ type: "METRIC", portId: idA, message: metric(`A${i}`) });
    for (let i = 0; i < 14; i++) b.post({ type: "METRIC", portId: idB, message: metric(`B${i}`) });
    await turns();
    expect(http.requests).toHaveLength(0);
    b.post({ type: "METRIC", portId: idB, message: metric("B14") });
    await waitUntil(() => http.requests.length === 1);
    expect((http.requests[0]!.body as { metricList: unknown[] }).metricList).toHaveLength(30);
  });

  it("WORKFLOW_EVENT messages are put every 2000 ms to {endpoint}/put-workflow-events", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({
      type: "WORKFLOW_EVENT",
      portId,
      message: { timestamp: 1, workflowType: "Chat", event: "Opened", data: [] },
    });
    await turns();
    vi.advanceTimersByTime(1_999);
    await turns();
    expect(http.requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await waitUntil(() => http.requests.length === 1);
    expect(http.requests[0]!.url).toBe(`${BASE}/put-workflow-events`);
  });

  it("SET_AUTH calls /auth and the jwtToken rides on later batches", async () => {
    const { open, configure, http } = setup((r) =>
      r.url.endsWith("/auth")
        ? { status: 200, body: { jwtToken: "jwt-1" } }
        : { status: 200, body: {} },
    );
    const page = open();
    const { portId } = await configure(page);
    page.post({ type: "SET_AUTH", portId, message: { apiKey: "k" } });
    await waitUntil(() => http.requests.length === 1);
    page.post({ type: "METRIC", portId, message: metric("M") });
    await turns();
    vi.advanceTimersByTime(30_000);
    await waitUntil(() => http.requests.length === 2);
    expect((http.requests[1]!.body as { authParams: unknown }).authParams).toEqual({
      apiKey: "k",
      jwtToken: "jwt-1",
    });
  });

  it("SET_CONFIG changes identity fields sent with batches", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({ type: "SET_CONFIG", portId, message: { key: "accountId", value: "acc-9" } });
    page.post({ type: "METRIC", portId, message: metric("M") });
    await turns();
    vi.advanceTimersByTime(30_000);
    await waitUntil(() => http.requests.length === 1);
    expect((http.requests[0]!.body as { accountId: string }).accountId).toBe("acc-9");
  });

  it("CUSTOM posts the message to its endpoint with its headers", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({
      type: "CUSTOM",
      portId,
      message: { x: 1 },
      endpoint: "https://c.example/in",
      headers: { "x-k": "v" },
    });
    await waitUntil(() => http.requests.length === 1);
    expect(http.requests[0]).toMatchObject({
      url: "https://c.example/in",
      headers: { "x-k": "v" },
      body: { x: 1 },
    });
  });

  it("failures are broadcast to every page as LOG messages with the spec's texts", async () => {
    const { open, configure } = setup(() => ({ status: 500 }));
    const a = open();
    const b = open();
    const { portId } = await configure(a);
    await configure(b);
    a.post({ type: "METRIC", portId, message: metric("M") });
    await turns();
    vi.advanceTimersByTime(30_000);
    for (const page of [a, b]) {
      expect(await page.next((m) => m.type === "LOG")).toEqual({
        type: "LOG",
        level: "warn",
        message: "AJAX request failed with status: 500",
        detail: undefined,
      });
      expect(await page.next((m) => m.type === "LOG")).toMatchObject({
        level: "error",
        message: "Put metrics to service failed",
        detail: { status: 500 },
      });
    }
  });

  it("a METRIC without a namespace is refused with a LOG, and the worker keeps working", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({ type: "METRIC", portId, message: { ...metric("M"), namespace: "" } });
    expect(await page.next((m) => m.type === "LOG")).toMatchObject({
      level: "error",
      detail: "NullOrUndefinedException: message[namespace] is null or undefined",
    });
    page.post({ type: "METRIC", portId, message: metric("Ok") });
    await turns();
    vi.advanceTimersByTime(30_000);
    await waitUntil(() => http.requests.length === 1);
  });

  it("when the last page sends CLOSE the worker flushes at once and stops its timers", async () => {
    const { open, configure, http, host } = setup();
    const a = open();
    const b = open();
    const idA = (await configure(a)).portId;
    const idB = (await configure(b)).portId;
    a.post({ type: "METRIC", portId: idA, message: metric("M") });
    a.post({ type: "CLOSE", portId: idA });
    await turns();
    expect(http.requests).toHaveLength(0);
    expect(host.portCount).toBe(1);
    b.post({ type: "CLOSE", portId: idB });
    await waitUntil(() => http.requests.length === 1);
    expect(host.portCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a page that posts again after its CLOSE (unload cancelled) is taken back", async () => {
    const { open, configure, host } = setup();
    const page = open();
    const { portId } = await configure(page);
    page.post({ type: "CLOSE", portId });
    await turns();
    expect(host.portCount).toBe(0);
    page.post({ type: "METRIC", portId, message: metric("M") });
    await turns();
    expect(host.portCount).toBe(1);
  });

  it("messages that are not telemetry messages are ignored", async () => {
    const { open, configure, host } = setup();
    const page = open();
    await configure(page);
    page.post({ type: "NOPE" } as never);
    page.post("hello" as never);
    await turns();
    expect(page.received).toHaveLength(1);
    expect(host.portCount).toBe(1);
  });

  it("nothing is sent in dryRunMode", async () => {
    const { open, configure, http } = setup();
    const page = open();
    const { portId } = await configure(page, { ...config, dryRunMode: true });
    page.post({ type: "METRIC", portId, message: metric("M") });
    await turns();
    vi.advanceTimersByTime(30_000);
    await turns();
    expect(http.requests).toHaveLength(0);
  });
});
