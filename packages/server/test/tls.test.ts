import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameClient } from "./support/client.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

/** POST over HTTPS trusting the test's self-signed certificate. */
function post(
  url: string,
  token: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        rejectUnauthorized: false,
        headers: { "content-type": "application/json", "x-amz-bearer": token },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("HTTPS and WSS with a certificate and key", () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cc-tls-"));
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    server = await startServer("pglite", { env: { TLS_CERT_FILE: cert, TLS_KEY_FILE: key } });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }, START_TIMEOUT_MS);

  it("serves the participant service over https and hands out a wss:// websocket URL that works", async () => {
    expect(server.url.startsWith("https://127.0.0.1:")).toBe(true);
    const chat = await server.startChat();
    const r = await post(`${server.url}/participant/connection`, chat.participantToken, {
      Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
    });
    expect(r.status).toBe(200);
    const url = (r.body.Websocket as { Url: string }).Url;
    expect(url.startsWith("wss://127.0.0.1:")).toBe(true);
    const ws = await FrameClient.open(url, { rejectUnauthorized: false });
    ws.send({ topic: "aws/ping" });
    expect(await ws.waitFor((f) => f.topic === "aws/ping")).toMatchObject({ statusCode: 200 });
    ws.close();
  });
});

describe("a configured https PUBLIC_URL", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("postgres", { env: { PUBLIC_URL: "https://chat.example.com/cc/" } });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("makes the websocket URL wss:// on that origin and path", async () => {
    const chat = await server.startChat();
    const local = `http://127.0.0.1:${(server.built.app.server.address() as { port: number }).port}`;
    const res = await fetch(`${local}/participant/connection`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-amz-bearer": chat.participantToken },
      body: JSON.stringify({ Type: ["WEBSOCKET"] }),
    });
    const body = (await res.json()) as { Websocket: { Url: string } };
    expect(body.Websocket.Url.startsWith("wss://chat.example.com/cc/participant/ws?token=")).toBe(
      true,
    );
  });
});
