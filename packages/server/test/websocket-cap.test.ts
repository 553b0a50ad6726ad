/** Issue 10: one client address holds at most WEBSOCKETS_PER_ADDRESS participant websockets. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameClient, connectParticipant } from "./support/client.js";
import { startServer, type TestServer } from "./support/server.js";

describe("websockets per address", () => {
  let server: TestServer;
  const sockets: FrameClient[] = [];
  beforeAll(async () => {
    server = await startServer("pglite", { env: { WEBSOCKETS_PER_ADDRESS: "3" } });
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  const newSocketUrl = async () => {
    const chat = await server.startChat();
    return (await connectParticipant(server.url, chat.participantToken)).websocketUrl;
  };

  // Run first: were they counted, the keep-alive connections fetch pools would still hold
  // places, and the next test's sockets would be refused.
  it("plain GETs of the websocket URL (no upgrade) take no place", async () => {
    const url = (await newSocketUrl()).replace("ws", "http");
    for (let i = 0; i < 5; i++) {
      const status = (await fetch(url)).status;
      expect(status).not.toBe(429);
      expect(status).toBeLessThan(500);
    }
  });

  it("the cap's worth open; one more is refused with 429 until one closes", async () => {
    for (let i = 0; i < 3; i++) sockets.push(await FrameClient.subscribed(await newSocketUrl()));
    const url = await newSocketUrl();
    await expect(FrameClient.open(url)).rejects.toThrow("unexpected response 429");
    sockets.shift()!.close();
    await expect
      .poll(
        async () =>
          FrameClient.open(url).then(
            (s) => (sockets.push(s), "open"),
            (e: Error) => e.message,
          ),
        { timeout: 30_000, interval: 100 },
      )
      .toBe("open");
  });
});
