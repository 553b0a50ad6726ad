/** Issue 10: /metrics can be restricted with METRICS_TOKEN (a scraper's), or read by a signed-in advisor. */
import { AgentApiPath, type SignInResponse } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "./features/helpers.js";
import { startServer, type TestServer } from "./support/server.js";

const METRICS_TOKEN = "a-scraper-token-of-at-least-32-characters";

describe("/metrics with METRICS_TOKEN", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite", { features: true, env: { METRICS_TOKEN } });
  }, 120_000);
  afterAll(() => server?.close());

  const read = (authorization?: string) =>
    fetch(server.url + "/metrics", authorization ? { headers: { authorization } } : {});

  it("answers the scraper's token and a signed-in advisor; anyone else gets 403", async () => {
    expect((await read()).status).toBe(403);
    expect((await read("Bearer not-the-token")).status).toBe(403);
    const scraped = await read(`Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("chat_widget_queue_waiting_contacts");
    const advisor = await http<SignInResponse>(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: "demo" },
    });
    expect((await read(`Bearer ${advisor.body.Token}`)).status).toBe(200);
  });

  it("sends no CORS headers: a page elsewhere cannot read it through a visitor's browser", async () => {
    const asked = await fetch(server.url + "/metrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, origin: "https://elsewhere.example" },
    });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("access-control-allow-origin")).toBeNull();
    // Percent-encoded, the path reaches the same route: still no CORS.
    const encoded = await fetch(server.url + "/%6Detrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, origin: "https://elsewhere.example" },
    });
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(server.url + "/metrics", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    // The telemetry the widget posts from any page keeps its CORS.
    const ingest = await fetch(server.url + "/telemetry/auth", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
    });
    expect(ingest.headers.get("access-control-allow-origin")).toBe("*");
  });
});
