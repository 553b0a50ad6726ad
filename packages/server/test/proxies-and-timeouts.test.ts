/**
 * Issue 10: a request whose body or headers trickle in is cut off after REQUEST_TIMEOUT_MS, and
 * behind a trusted reverse proxy (TRUST_PROXY) the client's address is the one X-Forwarded-For
 * names (seen here through the advisor sign-in throttle's per-address limit).
 */
import net from "node:net";
import { AgentApiPath } from "@chat-widget/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { SIGN_IN_MAX_FAILURES_PER_ADDRESS } from "../src/agents/sign-in-throttle.js";
import { http } from "./features/helpers.js";
import { startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a body that trickles in", () => {
  it("is answered 408 and the connection closed once REQUEST_TIMEOUT_MS has passed", async () => {
    server = await startServer("pglite", { env: { REQUEST_TIMEOUT_MS: "1000" } });
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(
      "POST /participant/message HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    // Nothing more is sent: the server, not the test, must end it.
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);
});

describe("headers that never end", () => {
  it("are answered 408 and the connection closed by the server once REQUEST_TIMEOUT_MS has passed", async () => {
    server = await startServer("pglite", { env: { REQUEST_TIMEOUT_MS: "1000" } });
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    let serverEnded = false;
    socket.once("end", () => (serverEnded = true));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    // The request line and one header, never the blank line that ends the headers.
    socket.write("POST /participant/message HTTP/1.1\r\nHost: x\r\n");
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // The test never ends the socket: the server sent its FIN.
    expect(serverEnded).toBe(true);
  }, 60_000);
});

describe("behind a trusted proxy", () => {
  const signIn = (forwardedFor: string) =>
    http(server!.url + AgentApiPath.SignIn, {
      headers: { "x-forwarded-for": forwardedFor },
      body: { Username: `u-${Math.random()}`, Password: "wrong" },
    });

  it("the client is the address X-Forwarded-For names: one client's failures do not throttle another's", async () => {
    server = await startServer("pglite", { features: true, env: { TRUST_PROXY: "loopback" } });
    for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await signIn("203.0.113.9")).status).toBe(403);
    }
    expect((await signIn("203.0.113.9")).status).toBe(429);
    expect((await signIn("198.51.100.7")).status).toBe(403);
  }, 120_000);
});
