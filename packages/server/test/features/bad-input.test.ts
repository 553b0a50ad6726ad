import { AgentApiPath, GatewayPath, TelemetryPath, agentContactPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/server.js";
import { http, signIn, startFeatureServer } from "./helpers.js";

const BODIES = [
  "null",
  "[]",
  '"text"',
  "123",
  "{}",
  '{"x":1}',
  "{",
  "",
  '{"Attributes":null}',
  '{"InstanceId":"demo-instance","InitialContactId":"x","Attributes":{"orderNumber":"A\\u0000"}}',
  '{"Username":"de\\u0000mo","Password":"x"}',
  '{"metricNamespace":"n","metricList":[{"metricName":"\\u0000","unit":"Count","value":1}]}',
];

describe("bad input on every feature route gets a 4xx AWS-style error, never a 5xx", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startFeatureServer("postgres");
    token = (await signIn(server)).token;
  }, 120_000);
  afterAll(() => server.close());

  const routes: [string, string][] = [
    ["POST", GatewayPath.StartChat],
    ["POST", GatewayPath.DiscussedOrderNumber],
    ["POST", TelemetryPath.Auth],
    ["POST", TelemetryPath.PutMetrics],
    ["POST", TelemetryPath.PutWorkflowEvents],
    ["POST", AgentApiPath.SignIn],
    ["PUT", AgentApiPath.Availability],
    ["POST", agentContactPath(AgentApiPath.Accept, "x")],
    ["POST", agentContactPath(AgentApiPath.ConnectionToken, "x")],
    ["POST", agentContactPath(AgentApiPath.End, "x")],
  ];

  it.each(routes)("%s %s", async (method, path) => {
    for (const body of BODIES) {
      for (const contentType of [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
      ]) {
        const r = await http(server.url + path, {
          method,
          rawBody: body,
          headers: {
            "content-type": contentType,
            origin: server.url,
            authorization: `Bearer ${token}`,
          },
        });
        const what = `${method} ${path} ${contentType} ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.body)}`;
        expect(r.status, what).toBeGreaterThanOrEqual(200);
        expect(r.status, what).toBeLessThan(500);
        if (r.status >= 400) {
          expect(r.headers.get("x-amzn-errortype"), what).toBeTruthy();
          expect(r.body, what).toMatchObject({
            __type: expect.any(String),
            message: expect.any(String),
          });
        }
      }
    }
  });

  it("odd ids and tokens are refused with 4xx", async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const id of ["%00", "a".repeat(300), "%F0%9F%98%80", "..%2F..%2Fetc"]) {
      const r = await http(`${server.url}/agent-api/contacts/${id}/accept`, {
        method: "POST",
        headers: auth,
      });
      expect(r.status, id).toBeGreaterThanOrEqual(400);
      expect(r.status, id).toBeLessThan(500);
    }
    const events = await http(`${server.url}${AgentApiPath.Events}?access_token=a&access_token=b`);
    expect(events.status).toBe(403);
    const weirdAuth = await http(server.url + AgentApiPath.Queue, {
      headers: { authorization: "Bearer" },
    });
    expect(weirdAuth.status).toBe(403);
    const verify = await http(server.url + GatewayPath.Verify, {
      headers: { origin: "null", "snippet-id": "x" },
    });
    expect(verify.status).toBe(403);
  });
});
