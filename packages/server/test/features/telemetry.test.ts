import { TelemetryPath, WIDGET_METRIC_NAMESPACE } from "@chat-widget/protocol";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  TELEMETRY_AUTH_LIMIT,
  TELEMETRY_BATCH_LIMIT,
  TELEMETRY_TOKEN_TTL_MS,
} from "../../src/telemetry/ingest-auth.js";
import {
  MAX_DIMENSION_NAME_LENGTH,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_METRIC_VALUE,
  MAX_SERIES,
} from "../../src/telemetry/limits.js";
import { ENGINES } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";
import { startServer, type TestServer } from "../support/server.js";
import { http, postStartChat, startFeatureServer } from "./helpers.js";

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

/**
 * The exposition as a scraper reads it: every line a comment or `name{labels} value`, label values
 * escaped, every value of the telemetry's own families (`chat_widget_*`) a finite number. The
 * process's metrics (prom-client) may be `NaN`, as the format allows: the event-loop lag has no
 * mean before its first sample. Returns the samples' names and label text.
 */
function parsePrometheus(text: string): { name: string; labels: string; value: number }[] {
  const label = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"`;
  const sample = new RegExp(
    String.raw`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:${label}(?:,${label})*)?\})? (\S+)$`,
  );
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .filter((line) => !line.startsWith("# "))
    .map((line) => {
      const m = sample.exec(line);
      if (!m) throw new Error(`not a sample line: ${line.slice(0, 200)}`);
      const nan = /^nan$/i.test(m[3]!);
      const value = nan ? NaN : Number(m[3]);
      const valid = m[1]!.startsWith("chat_widget_")
        ? Number.isFinite(value)
        : nan || !Number.isNaN(value);
      if (!valid) throw new Error(`not a finite value: ${line.slice(0, 200)}`);
      return { name: m[1]!, labels: m[2] ?? "", value };
    });
}

describe.each(ENGINES)("telemetry ingest (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // Each test starts a chat or more; the start-chat limit is not what is tested here.
    server = await startFeatureServer(engine, { TRUST_PROXY: "1", START_CHAT_BURST: "1000" });
  }, 120_000);
  afterAll(() => server.close());

  /** A chat's ParticipantToken, as the widget hands it to the telemetry's setAuth. */
  const startChat = async () => {
    const started = await postStartChat(server);
    expect(started.status).toBe(200);
    return started.body.data.startChatResult;
  };
  /** `/auth` as the worker calls it: JSON without a content type, so the browser's text/plain. */
  const auth = (authParams: Record<string, unknown>, ip?: string) =>
    http<{ jwtToken: string }>(server.url + TelemetryPath.Auth, {
      rawBody: JSON.stringify({ authParams }),
      headers: {
        "content-type": "text/plain;charset=UTF-8",
        origin: "https://any.example",
        ...(ip ? { "x-forwarded-for": ip } : {}),
      },
    });
  const tokenFor = async (participantToken: string) => {
    const r = await auth({ participantToken });
    expect(r.status).toBe(200);
    return r.body.jwtToken;
  };

  /** Each test's batches carry a telemetry token of a chat of their own (batches count per chat). */
  let jwtToken = "";
  beforeEach(async () => {
    jwtToken = await tokenFor((await startChat()).ParticipantToken);
  });
  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    http(server.url + path, {
      body: "authParams" in body ? body : { ...body, authParams: { jwtToken } },
      headers: { origin: "https://any.example", ...headers },
    });
  const stored = async (metricName: string) =>
    (await (await fetch(server.url + "/metrics")).text()).includes(`metric_name="${metricName}"`);

  it("auth takes a chat's participant token in a text/plain body (as the worker sends it) and answers a jwtToken for that chat, CORS open", async () => {
    const chat = await startChat();
    const r = await auth({ participantToken: chat.ParticipantToken });
    expect(r.status).toBe(200);
    const [, payload] = r.body.jwtToken.split(".");
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toMatchObject({
      scope: "telemetry",
      sub: chat.ContactId,
    });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const ok = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [metric("AuthOk", 1)],
      authParams: { jwtToken: r.body.jwtToken },
    });
    expect(ok.body).toEqual({ unsetToken: false });
    expect(await stored("AuthOk")).toBe(true);
  });

  it("GET /metrics carries the process's own metrics (prom-client), every line a valid sample", async () => {
    const text = await (await fetch(server.url + "/metrics")).text();
    const samples = parsePrometheus(text);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      "process_resident_memory_bytes",
      "process_cpu_seconds_total",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(names, name).toContain(name);
    expect(samples.find((s) => s.name === "process_resident_memory_bytes")!.value).toBeGreaterThan(
      10_000_000,
    );
    // Each family is described once: the telemetry's and the process's names never collide.
    const types = text.split("\n").filter((l) => l.startsWith("# TYPE "));
    expect(new Set(types).size).toBe(types.length);
  });

  it("auth without a chat's participant token is refused (403) and issues nothing", async () => {
    for (const authParams of [
      {},
      { user: "x" },
      { participantToken: "" },
      { participantToken: 42 },
      { participantToken: "not-a-token-of-any-chat" },
      { participantToken: "x".repeat(5000) },
    ]) {
      const r = await auth(authParams);
      expect(r.status, JSON.stringify(authParams).slice(0, 80)).toBe(403);
      expect(r.body).toMatchObject({ __type: "AccessDeniedException" });
      expect(r.body.jwtToken).toBeUndefined();
    }
  });

  it("a batch without a jwtToken is refused (403); one with a token that is not valid is answered unsetToken; neither is stored", async () => {
    const bare = await http(server.url + TelemetryPath.PutMetrics, {
      body: { metricNamespace: WIDGET_METRIC_NAMESPACE, metricList: [metric("NoToken", 1)] },
      headers: { origin: "https://any.example" },
    });
    expect(bare.status).toBe(403);
    expect(bare.body).toMatchObject({ __type: "AccessDeniedException" });
    expect(String(bare.body.message)).toContain("authParams.jwtToken");
    const bareEvents = await http(server.url + TelemetryPath.PutWorkflowEvents, {
      body: { workflowEventList: [] },
      headers: { origin: "https://any.example" },
    });
    expect(bareEvents.status).toBe(403);

    // Forged (signed with another key), unsigned, garbage: the worker is told to authenticate again.
    const [head, payload] = jwtToken.split(".");
    for (const forged of [`${head}.${payload}.AAAA`, `${head}.${payload}.`, "x.y.z"]) {
      const stale = await post(TelemetryPath.PutMetrics, {
        metricNamespace: WIDGET_METRIC_NAMESPACE,
        metricList: [metric("StaleToken", 1)],
        authParams: { jwtToken: forged },
      });
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual({ unsetToken: true });
    }
    const event = { timestamp: Date.UTC(2026, 0, 1), workflowType: "Stale", event: "E", data: [] };
    const staleEvents = await post(TelemetryPath.PutWorkflowEvents, {
      workflowEventList: [event],
      authParams: { jwtToken: "x.y.z" },
    });
    expect(staleEvents.body).toEqual({ workflowEventList: [event], unsetToken: true });
    const text = await (await fetch(server.url + "/metrics")).text();
    expect(text).not.toContain("NoToken");
    expect(text).not.toContain("StaleToken");
    expect(text).not.toContain('workflow_type="Stale"');
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
  it("refuses a value beyond the bound (1e308, twice) with 400, stores nothing, /metrics stays 200", async () => {
    for (const value of [1e308, 1e308, -1e308, MAX_METRIC_VALUE * 10]) {
      const r = await post(TelemetryPath.PutMetrics, {
        metricNamespace: WIDGET_METRIC_NAMESPACE,
        metricList: [metric("Overflow", 1), metric("Overflow", value)],
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ __type: "ValidationException" });
      expect((r.body as { message: string }).message).toContain("metricList[1].value");
    }
    // Within the bound, both ends.
    const edge = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [metric("Edge", MAX_METRIC_VALUE), metric("Edge", -MAX_METRIC_VALUE)],
    });
    expect(edge.status).toBe(200);
    const metrics = await fetch(server.url + "/metrics");
    expect(metrics.status).toBe(200);
    const samples = parsePrometheus(await metrics.text());
    expect(samples.some((s) => s.labels.includes('metric_name="Overflow"'))).toBe(false);
    expect(
      samples.find((s) => s.name.endsWith("_count") && s.labels.includes('metric_name="Edge"'))
        ?.value,
    ).toBe(2);
  });

  it("bounds dimension names and values in length", async () => {
    const withDimension = (name: string, value: string) =>
      post(TelemetryPath.PutMetrics, {
        metricNamespace: WIDGET_METRIC_NAMESPACE,
        metricList: [metric("Dims", 1, { dimensions: [{ name, value }] })],
      });
    const longName = await withDimension("n".repeat(MAX_DIMENSION_NAME_LENGTH + 1), "v");
    expect(longName.status).toBe(400);
    expect(longName.body).toMatchObject({ __type: "ValidationException" });
    const longValue = await withDimension("n", "v".repeat(MAX_DIMENSION_VALUE_LENGTH + 1));
    expect(longValue.status).toBe(400);
    expect(longValue.body).toMatchObject({ __type: "ValidationException" });
    const widest = Array.from({ length: 10 }, (_, i) => ({
      name: `${i}`.padEnd(MAX_DIMENSION_NAME_LENGTH, "n"),
      value: "v".repeat(MAX_DIMENSION_VALUE_LENGTH),
    }));
    const tooWide = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [metric("Dims", 1, { dimensions: widest })],
    });
    expect(tooWide.status).toBe(400);
    expect((tooWide.body as { message: string }).message).toContain("metricList[0]");
  });

  it("/metrics skips series written straight into the store that are not finite or malformed", async () => {
    const db = server.built.deps.db;
    const insert = (name: string, count: number, sum: number | string, dimensions = "[]") =>
      db.query(
        `INSERT INTO telemetry_metric_series (namespace, metric_name, unit, dimensions, count, sum, last_received_at)
         VALUES ('chat-widget', $1, 'Count', $2, $3, $4::double precision, now())`,
        [name, dimensions, count, String(sum)],
      );
    await insert("DirectNaN", 1, "NaN");
    await insert("DirectInfinite", 2, "Infinity");
    await insert("DirectNegativeInfinite", 2, "-Infinity");
    await insert("DirectEmpty", 0, 0);
    await insert("DirectNotJson", 1, 1, "{oops");
    await insert("DirectNotPairs", 1, 1, '[["a", 1]]');
    await insert("DirectObject", 1, 1, '{"a": "b"}');
    await insert("DirectLongLabel", 1, 1, JSON.stringify([["a", "x".repeat(100_000)]]));
    await insert("DirectGood", 2, 3, '[["WidgetType", "Direct"]]');

    const metrics = await fetch(server.url + "/metrics");
    expect(metrics.status).toBe(200);
    const samples = parsePrometheus(await metrics.text());
    const values = (name: string) =>
      samples.filter((s) => s.labels.includes(`metric_name="${name}"`)).map((s) => s.value);
    for (const bad of [
      "DirectNaN",
      "DirectInfinite",
      "DirectNegativeInfinite",
      "DirectEmpty",
      "DirectNotJson",
      "DirectNotPairs",
      "DirectObject",
      "DirectLongLabel",
    ])
      expect(values(bad)).toEqual([]);
    expect(values("DirectGood")).toEqual([2, 3]);
  });

  it("caps distinct series: new series beyond the cap are refused (402), known ones still taken, /metrics bounded", async () => {
    const longValue = "v".repeat(200);
    const flood = (from: number, n: number) =>
      post(TelemetryPath.PutMetrics, {
        metricNamespace: WIDGET_METRIC_NAMESPACE,
        metricList: Array.from({ length: n }, (_, i) =>
          metric("Flood", 1, { dimensions: [{ name: `Attack${from + i}`, value: longValue }] }),
        ),
      });
    // Fill the store to exactly the cap: batches shrink each time one is refused.
    let next = 0;
    let firstRefusal: Awaited<ReturnType<typeof flood>> | undefined;
    for (const size of [250, 50, 10, 1]) {
      for (;;) {
        const r = await flood(next, size);
        if (r.status !== 200) {
          firstRefusal ??= r;
          break;
        }
        next += size;
      }
    }
    expect(firstRefusal?.status).toBe(402);
    expect(firstRefusal?.body).toMatchObject({ __type: "ServiceQuotaExceededException" });
    expect((firstRefusal?.body as { message: string }).message).toContain(`${MAX_SERIES}`);
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(MAX_SERIES);

    // A series already stored is still taken; a request with one new series is refused whole.
    expect((await flood(0, 1)).status).toBe(200);
    const mixed = await post(TelemetryPath.PutMetrics, {
      metricNamespace: WIDGET_METRIC_NAMESPACE,
      metricList: [
        metric("Flood", 1, { dimensions: [{ name: "Attack0", value: longValue }] }),
        metric("BrandNew", 1),
      ],
    });
    expect(mixed.status).toBe(402);

    const metrics = await fetch(server.url + "/metrics");
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    const samples = parsePrometheus(text);
    const counts = samples.filter((s) => s.name === "chat_widget_metric_count");
    expect(counts.length).toBeLessThanOrEqual(MAX_SERIES);
    expect(counts.some((s) => s.labels.includes('metric_name="BrandNew"'))).toBe(false);
    expect(counts.find((s) => s.labels.includes("dim_Attack0="))?.value).toBe(2);
    expect(text.length).toBeLessThan(1_000_000);
  });

  it("caps distinct workflow series (type + event) the same way", async () => {
    const events = (from: number, n: number) =>
      post(TelemetryPath.PutWorkflowEvents, {
        workflowEventList: Array.from({ length: n }, (_, i) => ({
          timestamp: Date.UTC(2026, 0, 1),
          workflowType: "Flood",
          event: `e${from + i}`,
          data: [],
        })),
      });
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof events>> | undefined;
    for (let batch = 0; batch < 4 && !refused; batch++) {
      const r = await events(batch * 500, 500);
      if (r.status === 200) accepted += 500;
      else refused = r;
    }
    expect(refused?.status).toBe(402);
    expect(accepted).toBeLessThanOrEqual(MAX_SERIES);
    expect((await events(0, 1)).status).toBe(200);
    const text = await (await fetch(server.url + "/metrics")).text();
    const workflows = parsePrometheus(text).filter(
      (s) => s.name === "chat_widget_workflow_events_total",
    );
    expect(workflows.length).toBeLessThanOrEqual(MAX_SERIES);
  });
});

/** The limits on a clock that stands still: the counts are exact however slow the machine. */
describe("telemetry limits", () => {
  const clock = new ManualClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite", {
      features: true,
      clock,
      env: { TRUST_PROXY: "1", START_CHAT_BURST: "1000" },
    });
  }, 120_000);
  afterAll(() => server.close());

  const auth = (participantToken: string, ip: string) =>
    http<{ jwtToken: string }>(server.url + TelemetryPath.Auth, {
      body: { authParams: { participantToken } },
      headers: { origin: "https://any.example", "x-forwarded-for": ip },
    });
  const newToken = async () => (await server.startChat()).participantToken;
  const batch = (jwtToken: string) =>
    http(server.url + TelemetryPath.PutMetrics, {
      body: {
        metricNamespace: WIDGET_METRIC_NAMESPACE,
        metricList: [metric("Limited", 1)],
        authParams: { jwtToken },
      },
      headers: { origin: "https://any.example" },
    });

  it("batches are limited per chat: the burst, then 429 with Retry-After; another chat unaffected; one more after the interval", async () => {
    const jwt = (await auth(await newToken(), "203.0.113.1")).body.jwtToken;
    const answers = await Promise.all(
      Array.from({ length: TELEMETRY_BATCH_LIMIT.burst + 5 }, () => batch(jwt)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(TELEMETRY_BATCH_LIMIT.burst);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ __type: "ThrottlingException" });
    expect(refused.headers.get("retry-after")).toBe("1");
    const other = (await auth(await newToken(), "203.0.113.2")).body.jwtToken;
    expect((await batch(other)).status).toBe(200);
    clock.advance(TELEMETRY_BATCH_LIMIT.intervalMs);
    expect((await batch(jwt)).status).toBe(200);
    expect((await batch(jwt)).status).toBe(429);
  });

  it("auth is for a visitor with a chat: not an advisor's token, not a chat that ended over an hour ago", async () => {
    const chat = await server.startChat();
    const advisor = await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    expect((await auth(advisor.participantToken, "203.0.113.20")).status).toBe(403);
    await server.built.deps.centre.endContact(chat.contactId);
    clock.advance(TELEMETRY_TOKEN_TTL_MS);
    expect((await auth(chat.participantToken, "203.0.113.20")).status).toBe(200);
    clock.advance(1);
    const late = await auth(chat.participantToken, "203.0.113.20");
    expect(late.status).toBe(403);
    expect(late.body).toMatchObject({ __type: "AccessDeniedException" });
  });

  it("auth is limited per client address: the burst, then 429; another address unaffected", async () => {
    const participantToken = await newToken();
    const statuses = [];
    for (let i = 0; i < TELEMETRY_AUTH_LIMIT.burst + 1; i++)
      statuses.push((await auth(participantToken, "203.0.113.9")).status);
    expect(statuses.slice(0, TELEMETRY_AUTH_LIMIT.burst).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await auth(participantToken, "203.0.113.10")).status).toBe(200);
  });
});
