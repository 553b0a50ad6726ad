/**
 * Issue 57, finding 5: telemetry cannot fill the disk. One chat stored 46 MB in 17 s within its
 * batch limits; now each chat stores at most ROWS_PER_CHAT_DAY rows and BYTES_PER_CHAT_DAY bytes
 * a UTC day (429 with Retry-After until the day ends, nothing stored), and a workflow event's
 * `data` is cut short.
 */
import { TelemetryPath, WIDGET_METRIC_NAMESPACE } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BYTES_PER_CHAT_DAY,
  ROWS_PER_CHAT_DAY,
  WORKFLOW_DATA_PAIRS,
  WORKFLOW_DATA_VALUE_LENGTH,
} from "../../src/telemetry/quota.js";
import { ENGINES } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";
import { startServer, type TestServer } from "../support/server.js";
import { http } from "./helpers.js";

const BATCH = 1000;
const metrics = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    metricName: "QuotaFill",
    unit: "Count",
    value: i,
    timestamp: "2026-01-15T10:00:00.000Z",
    dimensions: [{ name: "WidgetType", value: "CustomChatWidget".repeat(8) }],
    namespace: WIDGET_METRIC_NAMESPACE,
  }));

describe.each(ENGINES)("the telemetry quota of a chat (%s)", (engine) => {
  let server: TestServer;
  // 10:00 UTC: the day ends in 14 hours.
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  beforeAll(async () => {
    server = await startServer(engine, { features: true, clock });
  }, 120_000);
  afterAll(() => server?.close());

  const tokenOfNewChat = async () => {
    const chat = await server.startChat();
    const r = await http<{ jwtToken: string }>(server.url + TelemetryPath.Auth, {
      body: { authParams: { participantToken: chat.participantToken } },
      headers: { origin: "https://any.example" },
    });
    expect(r.status).toBe(200);
    return r.body.jwtToken;
  };
  const put = (jwtToken: string, path: string, body: object) =>
    http<{ message?: string }>(server.url + path, {
      body: { ...body, authParams: { jwtToken } },
      headers: { origin: "https://any.example" },
    });
  const putMetrics = (jwtToken: string, n = BATCH) =>
    put(jwtToken, TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: metrics(n),
    });
  const storedRows = async () =>
    Number(
      (
        await server.built.deps.db.query<{ n: unknown }>(
          "SELECT count(*) AS n FROM telemetry_metrics WHERE metric_name = 'QuotaFill'",
        )
      )[0]!.n,
    );

  it("stores a chat's batches up to its daily bytes, then refuses whole with 429 until the day ends; another chat, and the next day, are served", async () => {
    const token = await tokenOfNewChat();
    const before = await storedRows();
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof putMetrics>> | null = null;
    // Batches come a second apart (the per-chat batch limit), far below the limit's burst.
    for (let i = 0; i < ROWS_PER_CHAT_DAY / BATCH + 1 && !refused; i++) {
      clock.advance(1000);
      const r = await putMetrics(token);
      if (r.status === 200) accepted++;
      else refused = r;
    }
    expect(refused).toMatchObject({ status: 429 });
    expect(refused!.headers.get("retry-after")).toBe(String(14 * 3600 - accepted - 1));
    expect(refused!.body.message).toMatch(/^This chat's telemetry for today is full/);
    const metrics = await (await fetch(server.url + "/metrics")).text();
    expect(metrics).toContain('chat_widget_refusals_total{kind="telemetry_quota"} 1');
    expect(await storedRows()).toBe(before + accepted * BATCH);
    const [usage] = await server.built.deps.db.query<{ rows: number; bytes: unknown }>(
      "SELECT rows, bytes FROM telemetry_usage ORDER BY bytes DESC LIMIT 1",
    );
    expect(Number(usage!.bytes)).toBeLessThanOrEqual(BYTES_PER_CHAT_DAY);
    expect(usage!.rows).toBe(accepted * BATCH);
    // Another chat is served meanwhile; this one, the next day.
    expect((await putMetrics(await tokenOfNewChat())).status).toBe(200);
    clock.advance(14 * 3600 * 1000);
    expect((await putMetrics(token)).status).toBe(200);
  });

  it("a workflow event's data is kept short: its first pairs, each value cut", async () => {
    const token = await tokenOfNewChat();
    const data = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, value: "v".repeat(1024) }));
    const r = await put(token, TelemetryPath.PutWorkflowEvents, {
      workflowEventList: [
        { timestamp: clock.now(), workflowType: "QuotaWorkflow", event: "Started", data },
      ],
    });
    expect(r.status).toBe(200);
    const [row] = await server.built.deps.db.query<{ data: { key: string; value: string }[] }>(
      "SELECT data FROM telemetry_workflow_events WHERE workflow_type = 'QuotaWorkflow'",
    );
    expect(row!.data).toHaveLength(WORKFLOW_DATA_PAIRS);
    expect(row!.data.every((p) => p.value.length === WORKFLOW_DATA_VALUE_LENGTH)).toBe(true);
  });
});
