import type { WireMetric, WireWorkflowEvent } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import { Publisher, TelemetryLogText } from "./publisher.js";
import type { LogSink } from "./publisher.js";
import { fakeFetch } from "./test-support/fake-fetch.js";
import type { FakeReply, RecordedRequest } from "./test-support/fake-fetch.js";

const BASE = "https://telemetry.example/prod";
const metric: WireMetric = {
  metricName: "WebsocketConnectionGained",
  unit: "Count",
  value: 1,
  timestamp: "2025-01-01T10:00:00.000Z",
  dimensions: [{ name: "WidgetType", value: "CustomChatWidget" }],
  optionalDimensions: [],
  namespace: "chat-widget",
};
const event: WireWorkflowEvent = { timestamp: 1, workflowType: "Chat", event: "Opened", data: [] };

function setup(
  reply?: (r: RecordedRequest) => FakeReply,
  config: Partial<Publisher["config"]> = {},
) {
  const http = fakeFetch(reply);
  const log = vi.fn<LogSink>();
  const publisher = new Publisher(http.fetch, log);
  Object.assign(publisher.config, { endpointUrl: BASE }, config);
  const logged = (level: string) => log.mock.calls.filter((c) => c[0] === level).map((c) => c[1]);
  return { http, log, logged, publisher };
}

describe("Publisher: telemetry HTTP calls (docs/product.md §7)", () => {
  it("POST {endpoint}/put-metrics with metricNamespace, metricList, authParams, accountId, organizationId, agentResourceId", async () => {
    const { http, publisher } = setup(undefined, {
      accountId: "acc",
      organizationId: "org",
      userId: "agent-7",
      authParams: { jwtToken: "t0" },
    });
    await publisher.putMetrics("chat-widget", [metric]);
    expect(http.requests).toHaveLength(1);
    const [request] = http.requests;
    expect(request!.url).toBe(`${BASE}/put-metrics`);
    expect(request!.method).toBe("POST");
    expect(request!.headers).toEqual({ "Content-Type": "application/json" });
    expect(request!.body).toEqual({
      metricNamespace: "chat-widget",
      metricList: [metric],
      authParams: { jwtToken: "t0" },
      accountId: "acc",
      organizationId: "org",
      agentResourceId: "agent-7",
    });
  });

  it("leaves unset identity fields out of the body", async () => {
    const { http, publisher } = setup();
    await publisher.putMetrics("chat-widget", [metric]);
    expect(Object.keys(http.requests[0]!.body as object)).toEqual([
      "metricNamespace",
      "metricList",
    ]);
  });

  it("POST {endpoint}/put-workflow-events with workflowEventList and authParams", async () => {
    const { http, publisher } = setup(undefined, { authParams: { jwtToken: "t0" } });
    await publisher.putWorkflowEvents([event]);
    expect(http.requests[0]!.url).toBe(`${BASE}/put-workflow-events`);
    expect(http.requests[0]!.body).toEqual({
      workflowEventList: [event],
      authParams: { jwtToken: "t0" },
    });
  });

  it("POST {endpoint}/auth with authParams; the response jwtToken is sent with later batches", async () => {
    const { http, publisher } = setup((r) =>
      r.url.endsWith("/auth")
        ? { status: 200, body: { jwtToken: "jwt-1" } }
        : { status: 200, body: {} },
    );
    await expect(publisher.setAuth({ apiKey: "k" })).resolves.toBe(true);
    const auth = http.to("/auth")[0]!;
    expect(auth.url).toBe(`${BASE}/auth`);
    expect(auth.body).toEqual({ authParams: { apiKey: "k" } });
    expect(auth.headers["x-api-key"]).toBe("auth-method-level-key");
    await publisher.putMetrics("chat-widget", [metric]);
    expect((http.to("/put-metrics")[0]!.body as { authParams: unknown }).authParams).toEqual({
      apiKey: "k",
      jwtToken: "jwt-1",
    });
  });

  it("a batch posted while /auth is in flight waits for it and carries the new jwtToken", async () => {
    const { http, publisher } = setup((r) =>
      r.url.endsWith("/auth")
        ? { status: 200, body: { jwtToken: "jwt-1" } }
        : { status: 200, body: {} },
    );
    const auth = publisher.setAuth({ apiKey: "k" });
    const put = publisher.putMetrics("chat-widget", [metric]);
    await Promise.all([auth, put]);
    expect(http.requests.map((r) => r.url.slice(BASE.length))).toEqual(["/auth", "/put-metrics"]);
    expect(
      (http.requests[1]!.body as { authParams: { jwtToken: string } }).authParams.jwtToken,
    ).toBe("jwt-1");
  });

  it("unsetToken triggers re-authentication; the next batch carries the new jwtToken, the answered one is not sent twice", async () => {
    let tokens = 0;
    let puts = 0;
    const { http, publisher } = setup((r) => {
      if (r.url.endsWith("/auth")) return { status: 200, body: { jwtToken: `jwt-${++tokens}` } };
      return { status: 200, body: { unsetToken: ++puts === 1 } };
    });
    await publisher.setAuth({ apiKey: "k" });
    await publisher.putMetrics("chat-widget", [metric]);
    expect(http.requests.map((r) => r.url.slice(BASE.length))).toEqual([
      "/auth",
      "/put-metrics",
      "/auth",
    ]);
    expect(http.requests[2]!.body).toEqual({ authParams: { apiKey: "k" } });
    await publisher.putMetrics("chat-widget", [metric]);
    const jwt = http
      .to("/put-metrics")
      .map((r) => (r.body as { authParams: { jwtToken: string } }).authParams.jwtToken);
    expect(jwt).toEqual(["jwt-1", "jwt-2"]);
  });

  it("unsetToken on put-workflow-events also re-authenticates", async () => {
    let tokens = 0;
    const { http, publisher } = setup((r) => {
      if (r.url.endsWith("/auth")) return { status: 200, body: { jwtToken: `jwt-${++tokens}` } };
      return { status: 200, body: { unsetToken: true } };
    });
    await publisher.putWorkflowEvents([event]);
    await publisher.putWorkflowEvents([event]);
    expect(http.requests.map((r) => r.url.slice(BASE.length))).toEqual([
      "/put-workflow-events",
      "/auth",
      "/put-workflow-events",
      "/auth",
    ]);
    expect(
      (http.requests[2]!.body as { authParams: { jwtToken: string } }).authParams.jwtToken,
    ).toBe("jwt-1");
  });

  it('a non-200 response logs "AJAX request failed with status" and "Put metrics to service failed"', async () => {
    const { logged, publisher } = setup(() => ({ status: 500, body: { message: "boom" } }));
    await expect(publisher.putMetrics("chat-widget", [metric])).resolves.toBeUndefined();
    expect(logged("warn")).toEqual(["AJAX request failed with status: 500"]);
    expect(logged("error")).toEqual(["Put metrics to service failed"]);
    expect(TelemetryLogText.RequestFailed).toBe("AJAX request failed with status");
  });

  it('a failed put-workflow-events logs "Put workflow events to service failed"', async () => {
    const { logged, publisher } = setup(() => ({ status: 503 }));
    await publisher.putWorkflowEvents([event]);
    expect(logged("warn")).toEqual(["AJAX request failed with status: 503"]);
    expect(logged("error")).toEqual(["Put workflow events to service failed"]);
  });

  it("workflow events the service reports as failed are logged", async () => {
    const { logged, publisher } = setup(() => ({
      status: 200,
      body: { workflowEventList: [event, event] },
    }));
    await publisher.putWorkflowEvents([event, event]);
    expect(logged("warn")).toEqual(["There are 2 workflow events that failed to publish"]);
  });

  it('a failed /auth logs "csm auth failed" and later batches go without a token', async () => {
    const { http, logged, publisher } = setup((r) =>
      r.url.endsWith("/auth") ? { status: 401 } : { status: 200 },
    );
    await expect(publisher.setAuth({ apiKey: "bad" })).resolves.toBe(false);
    expect(logged("error")).toEqual(["csm auth failed"]);
    await publisher.putMetrics("chat-widget", [metric]);
    expect((http.to("/put-metrics")[0]!.body as { authParams: unknown }).authParams).toEqual({
      apiKey: "bad",
    });
  });

  it("an /auth answer without a jwtToken is a failed auth", async () => {
    const { logged, publisher } = setup(() => ({ status: 200, body: {} }));
    await expect(publisher.setAuth({})).resolves.toBe(false);
    expect(logged("error")).toEqual(["csm auth failed"]);
  });

  it("a dead endpoint (fetch rejecting) is only logged: nothing rejects", async () => {
    const { logged, publisher } = setup(() => new TypeError("Failed to fetch"));
    await expect(publisher.putMetrics("chat-widget", [metric])).resolves.toBeUndefined();
    await expect(publisher.putWorkflowEvents([event])).resolves.toBeUndefined();
    await expect(publisher.setAuth({ a: 1 })).resolves.toBe(false);
    await expect(
      publisher.putCustom(`${BASE}/custom`, undefined, { a: 1 }),
    ).resolves.toBeUndefined();
    expect(logged("error")).toEqual([
      "Put metrics to service failed",
      "Put workflow events to service failed",
      "csm auth failed",
      "Failed to put custom data",
    ]);
  });

  it("a 200 whose body is not JSON counts as success", async () => {
    const fetch = vi.fn(
      async () => ({ status: 200, text: async () => "OK" }) as unknown as Response,
    );
    const log = vi.fn<LogSink>();
    const publisher = new Publisher(fetch, log);
    publisher.config.endpointUrl = BASE;
    await publisher.putMetrics("chat-widget", [metric]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(log).not.toHaveBeenCalled();
  });

  it("POST to a custom endpoint with custom headers", async () => {
    const { http, publisher } = setup();
    await publisher.putCustom(
      "https://collector.example/ingest",
      { "x-custom": "1", "Content-Type": "text/plain" },
      {
        hello: "world",
      },
    );
    expect(http.requests[0]).toEqual({
      url: "https://collector.example/ingest",
      method: "POST",
      headers: { "x-custom": "1", "Content-Type": "text/plain" },
      body: { hello: "world" },
    });
    await publisher.putCustom("https://collector.example/ingest", undefined, [1]);
    expect(http.requests[1]!.headers).toEqual({ "Content-Type": "application/json" });
  });

  it("nothing is sent in dry-run mode or without an endpoint", async () => {
    const dry = setup(undefined, { dryRunMode: true });
    await dry.publisher.putMetrics("chat-widget", [metric]);
    await dry.publisher.putWorkflowEvents([event]);
    await dry.publisher.setAuth({});
    await dry.publisher.putCustom("https://x.example", undefined, {});
    expect(dry.http.requests).toHaveLength(0);
    const none = setup(undefined, { endpointUrl: undefined });
    await none.publisher.putMetrics("chat-widget", [metric]);
    expect(none.http.requests).toHaveLength(0);
  });

  it("the paths go under the endpoint's own path (/prod/put-metrics); a trailing slash is not doubled", async () => {
    const { http, publisher } = setup(undefined, { endpointUrl: `${BASE}/` });
    await publisher.putMetrics("chat-widget", [metric]);
    expect(http.requests[0]!.url).toBe(`${BASE}/put-metrics`);
  });
});
