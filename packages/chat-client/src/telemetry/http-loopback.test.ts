import { createServer } from "node:http";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTelemetry } from "./telemetry-client.js";
import { recordingLogger } from "./test-support/fake-fetch.js";
import { waitUntil } from "./test-support/message-pages.js";

interface Received {
  method: string | undefined;
  path: string | undefined;
  contentType: string | undefined;
  apiKey: string | undefined;
  body: Record<string, unknown>;
}

let server: Server | undefined;

async function startServer(answer: (r: Received) => { status: number; body: unknown }) {
  const received: Received[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const r: Received = {
        method: req.method,
        path: req.url,
        contentType: req.headers["content-type"],
        apiKey: req.headers["x-api-key"] as string | undefined,
        body: JSON.parse(raw) as Record<string, unknown>,
      };
      received.push(r);
      const { status, body } = answer(r);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  // Served like the contact centre: its telemetry endpoint is <origin>/telemetry.
  return { received, endpoint: `http://127.0.0.1:${port}/telemetry` };
}

describe("telemetry against a real HTTP server on 127.0.0.1", () => {
  afterEach(async () => {
    const open = server;
    server = undefined;
    if (open) await new Promise((resolve) => open.close(resolve));
  });

  it("30 metrics arrive as one real put-metrics body; unsetToken re-authenticates and close sends the rest with the token", async () => {
    let puts = 0;
    let auths = 0;
    const { received, endpoint } = await startServer((r) => {
      if (r.path === "/telemetry/auth")
        return {
          status: 200,
          body: {
            jwtToken: `jwt-${++auths}-for-${String(r.body.authParams && (r.body.authParams as { who: string }).who)}`,
          },
        };
      puts += 1;
      return { status: 200, body: { unsetToken: puts === 1 } };
    });
    const telemetry = createTelemetry({
      endpoint,
      env: { fetch: (url, init) => fetch(url, init) },
      widgetType: "ChatWidget",
    });
    telemetry.setAuth({ who: "visitor" });
    await waitUntil(() => received.length === 1);
    for (let i = 0; i < 30; i++)
      telemetry.addCountMetric(i % 2 ? "WebsocketIncomingMessage" : "WebsocketConnectionGained");
    await waitUntil(() => received.length === 3);
    telemetry.addCountMetric("WebsocketEnded");
    telemetry.close();
    await waitUntil(() => received.length === 4);

    expect(received.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/telemetry/auth"],
      ["POST", "/telemetry/put-metrics"],
      ["POST", "/telemetry/auth"],
      ["POST", "/telemetry/put-metrics"],
    ]);
    expect(received[0]!.apiKey).toBe("auth-method-level-key");
    const [first, , , next] = received;
    expect(first!.body).toEqual({ authParams: { who: "visitor" } });
    const put = received[1]!;
    expect(put.contentType).toBe("application/json");
    expect(put.body.metricNamespace).toBe("chat-widget");
    expect(put.body.authParams).toEqual({ who: "visitor", jwtToken: "jwt-1-for-visitor" });
    const list = put.body.metricList as Record<string, unknown>[];
    expect(list).toHaveLength(30);
    expect(list[0]).toEqual({
      metricName: "WebsocketConnectionGained",
      unit: "Count",
      value: 1,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      dimensions: [{ name: "WidgetType", value: "ChatWidget" }],
      optionalDimensions: [],
      namespace: "chat-widget",
    });
    expect(received[2]!.body).toEqual({ authParams: { who: "visitor" } });
    expect(next!.body.authParams).toEqual({ who: "visitor", jwtToken: "jwt-2-for-visitor" });
    expect((next!.body.metricList as { metricName: string }[]).map((m) => m.metricName)).toEqual([
      "WebsocketEnded",
    ]);
  });

  it("a server answering 500 only produces log lines", async () => {
    const { received, endpoint } = await startServer(() => ({
      status: 500,
      body: { message: "down" },
    }));
    const logger = recordingLogger();
    const telemetry = createTelemetry({
      endpoint,
      logger,
      env: { fetch: (url, init) => fetch(url, init) },
    });
    for (let i = 0; i < 30; i++) telemetry.addCountMetric("M");
    await waitUntil(() => logger.entries.length === 2);
    telemetry.close();
    expect(received).toHaveLength(1);
    expect(logger.messages()).toEqual([
      "AJAX request failed with status: 500",
      "Put metrics to service failed",
    ]);
  });

  it("a closed port (nothing listening) only produces a log line", async () => {
    const { endpoint } = await startServer(() => ({ status: 200, body: {} }));
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const logger = recordingLogger();
    const telemetry = createTelemetry({
      endpoint,
      logger,
      env: { fetch: (url, init) => fetch(url, init) },
    });
    for (let i = 0; i < 30; i++) telemetry.addCountMetric("M");
    await waitUntil(() => logger.entries.length === 1);
    telemetry.close();
    expect(logger.messages("error")).toEqual(["Put metrics to service failed"]);
  });
});
