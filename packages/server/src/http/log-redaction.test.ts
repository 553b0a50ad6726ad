import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, listen } from "../app.js";
import { loadConfig } from "../config.js";
import { REDACTED, redactUrl } from "./log-redaction.js";

describe("redactUrl", () => {
  it("replaces the value of each credential parameter and keeps the rest", () => {
    expect(redactUrl("/agent-api/events?access_token=abc&x=1")).toBe(
      `/agent-api/events?access_token=${REDACTED}&x=1`,
    );
    expect(redactUrl("/ws?TOKEN=abc")).toBe(`/ws?TOKEN=${REDACTED}`);
    expect(redactUrl("/f/a1?expires=99&signature=s1g")).toBe(
      `/f/a1?expires=99&signature=${REDACTED}`,
    );
    expect(redactUrl("/x?%74oken=abc&bad=%E0%A4%A")).toBe(`/x?%74oken=${REDACTED}&bad=%E0%A4%A`);
    expect(redactUrl("/plain")).toBe("/plain");
    expect(redactUrl("/q?token")).toBe("/q?token");
  });
});

/** A real server whose log is collected: `lines()` parses what it wrote so far. */
async function loggedServer(level: string) {
  let log = "";
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: "memory", LOG_LEVEL: level });
  const built = await buildApp(config, { logStream: stream, features: true });
  const url = await listen(built);
  const lines = () =>
    log
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string; method?: string } });
  return { built, url, text: () => log, lines };
}

describe("the request log of a real server, every request logged (debug)", () => {
  let server: Awaited<ReturnType<typeof loggedServer>>;
  beforeAll(async () => {
    server = await loggedServer("debug");
  }, 120_000);
  afterAll(() => server?.built.close());

  it("never holds a token, signature or password from a URL, header or body", async () => {
    const { url } = server;
    const secrets = ["sEcReT-access", "sEcReT-ws", "sEcReT-sig", "sEcReT-bearer", "sEcReT-pass"];
    await fetch(`${url}/agent-api/events?access_token=${secrets[0]}`);
    await fetch(`${url}/agent-api/ws?token=${secrets[1]}`);
    await fetch(`${url}/participant/attachment-files/a1?expires=1&signature=${secrets[2]}`);
    await fetch(`${url}/participant/message`, {
      method: "POST",
      headers: { "x-amz-bearer": secrets[3]!, authorization: `Bearer ${secrets[3]}` },
      body: "{}",
    });
    await fetch(`${url}/agent-api/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ Username: "demo", Password: secrets[4] }),
    });
    await expect.poll(() => server.text().includes("/agent-api/sign-in")).toBe(true);
    const log = server.text();
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).toContain(`access_token=${REDACTED}`);
    expect(log).toContain(`token=${REDACTED}`);
    await expect
      .poll(() => server.lines().filter((l) => l.msg === "request completed").length)
      .toBeGreaterThanOrEqual(5);
  });
});

describe("the request log at the default level (info)", () => {
  let server: Awaited<ReturnType<typeof loggedServer>>;
  beforeAll(async () => {
    server = await loggedServer("info");
  }, 120_000);
  afterAll(() => server?.built.close());

  it("has no line for a request served, and a refused one with its redacted URL", async () => {
    const { url } = server;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${url}/agent-api/events?access_token=sEcReT-access`);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    await expect.poll(() => server.lines().some((l) => l.msg === "request rejected")).toBe(true);
    const lines = server.lines();
    expect(
      lines.filter((l) => l.msg === "incoming request" || l.msg === "request completed"),
    ).toEqual([]);
    expect(lines.some((l) => l.req?.url === "/healthz")).toBe(false);
    const rejected = lines.find((l) => l.msg === "request rejected");
    expect(rejected?.req).toMatchObject({
      method: "GET",
      url: `/agent-api/events?access_token=${REDACTED}`,
    });
    expect(server.text()).not.toContain("sEcReT");
  });
});
