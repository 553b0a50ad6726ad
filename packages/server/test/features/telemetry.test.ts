import { TelemetryPath, WIDGET_METRIC_NAMESPACE } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { http, startFeatureServer } from "./helpers.js";

const metric = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  metricName: name,
  unit: "Count",
  value,
  timestamp: "2026-01-01T10:00:07.182Z",
  dimensions: [{ name: "WidgetType", value: "CustomChatWidget" }],
  optionalDimensions: [],
  namespace: WIDGET_METRIC_NAMESPACE,
  ...extra,
});

describe.each(ENGINES)("telemetry ingest (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(() => server.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    http(server.url + path, { body, headers: { origin: "https://any.example", ...headers } });

  it("auth accepts a text/plain body (as the worker sends it) and answers a jwtToken, CORS open", async () => {
    const r = await http<{ jwtToken: string }>(server.url + TelemetryPath.Auth, {
      rawBody: JSON.stringify({ authParams: { user: "x" } }),
      headers: { "content-type": "text/plain;charset=UTF-8", origin: "https://any.example" },
    });
    expect(r.status).toBe(200);
    expect(r.body.jwtToken.split(".")).toHaveLength(3);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const ok = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [],
      authParams: { jwtToken: r.body.jwtToken },
    });
    expect(ok.body).toEqual({ unsetToken: false });
    const stale = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [],
      authParams: { jwtToken: "x.y.z" },
    });
    expect(stale.body).toEqual({ unsetToken: true });
  });

  it("stores metrics and GET /metrics shows counts and sums in Prometheus text format", async () => {
    const r = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [
        metric("WebsocketConnectionGained", 1),
        metric("WebsocketConnectionGained", 1),
        metric("SendMessage", 182, {
          unit: "Milliseconds",
          dimensions: [
            { name: "WidgetType", value: "CustomChatWidget" },
            { name: "ContentType", value: 'text/"plain"\n' },
          ],
        }),
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ unsetToken: false });
    const workflows = await post(TelemetryPath.PutWorkflowEvents, {
      workflowEventList: [
        { timestamp: Date.UTC(2026, 0, 1), workflowType: "Chat", event: "Start", data: [] },
      ],
    });
    expect(workflows.status).toBe(200);
    expect(workflows.body).toEqual({});

    const metrics = await fetch(server.url + "/metrics");
    expect(metrics.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await metrics.text();
    expect(text).toContain("# TYPE chat_widget_metric summary");
    expect(text).toContain(
      'chat_widget_metric_count{namespace="chat-widget",metric_name="WebsocketConnectionGained",unit="Count",dim_WidgetType="CustomChatWidget"} 2',
    );
    expect(text).toContain(
      'chat_widget_metric_sum{namespace="chat-widget",metric_name="SendMessage",unit="Milliseconds",dim_ContentType="text/\\"plain\\"\\n",dim_WidgetType="CustomChatWidget"} 182',
    );
    expect(text).toContain(
      'chat_widget_workflow_events_total{workflow_type="Chat",event="Start"} 1',
    );
    expect(text).toContain("# TYPE chat_widget_queue_waiting_contacts gauge");
  });

  it("refuses invalid metrics with 400: unit, more than 10 dimensions, missing values, bad JSON", async () => {
    const bad = async (metricList: unknown[]) =>
      post(TelemetryPath.PutMetrics, { metricNamespace: WIDGET_METRIC_NAMESPACE, metricList });
    const unit = await bad([metric("X", 1, { unit: "Bytes" })]);
    expect(unit.status).toBe(400);
    expect(unit.body).toMatchObject({ __type: "ValidationException" });
    expect((unit.body as { message: string }).message).toContain("unit");
    const dims = Array.from({ length: 6 }, (_, i) => ({ name: `d${i}`, value: "v" }));
    const eleven = await bad([
      metric("X", 1, {
        dimensions: dims,
        optionalDimensions: dims.map((d) => ({ ...d, name: `o${d.name}` })),
      }),
    ]);
    expect(eleven.status).toBe(400);
    expect((eleven.body as { message: string }).message).toContain(
      "Metric has maximum 10 dimensions",
    );
    const nullValue = await bad([metric("X", 1, { value: null })]);
    expect(nullValue.status).toBe(400);
    expect((await bad([metric("X", 1, { timestamp: "yesterday" })])).status).toBe(400);
    const notJson = await http(server.url + TelemetryPath.Auth, {
      rawBody: "{",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(400);
    const noList = await post(TelemetryPath.PutWorkflowEvents, {
      workflowEventList: [{ workflowType: "x" }],
    });
    expect(noList.status).toBe(400);
    const hugeTime = await post(TelemetryPath.PutWorkflowEvents, {
      workflowEventList: [{ timestamp: 1e300, workflowType: "x", event: "y" }],
    });
    expect(hugeTime.status).toBe(400);
  });
});
