/**
 * Issue 57, finding 8: a participant websocket whose client stopped reading is closed (it pinned
 * its send buffers for ever), found by the unanswered ping; a reading one stays. Real sockets.
 */
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectParticipant, FrameClient } from "./support/client.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const STALL_MS = 2000;

describe("a websocket whose client stopped reading", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite", { env: { WEBSOCKET_STALL_MS: String(STALL_MS) } });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const stalled = async () => {
    const text = await (await fetch(server.url + "/metrics")).text();
    const line = text.split("\n").find((l) => l.includes('kind="websocket_stalled"'));
    return Number(line?.split(" ")[1] ?? NaN);
  };
  const subscribed = async () => {
    const chat = await server.startChat();
    const { websocketUrl } = await connectParticipant(server.url, chat.participantToken);
    return FrameClient.subscribed(websocketUrl);
  };

  it("is closed after an unanswered ping; a reading one stays open", async () => {
    const before = await stalled();
    const reading = await subscribed();
    let pings = 0;
    reading.socket.on("ping", () => pings++);
    const paused = await subscribed();
    // The client reads nothing more: the server's pings go unanswered.
    (paused.socket as unknown as { _socket: Socket })._socket.pause();
    await expect.poll(stalled, { timeout: 20_000, interval: 200 }).toBe(before + 1);
    expect(reading.closed).toBeNull();
    // Rounds go on: the reading socket answers each and stays.
    const seen = pings;
    await expect.poll(() => pings, { timeout: 20_000 }).toBeGreaterThanOrEqual(seen + 2);
    expect(reading.closed).toBeNull();
    expect(await stalled()).toBe(before + 1);
    // Reading again, the cut client sees its connection gone.
    (paused.socket as unknown as { _socket: Socket })._socket.resume();
    await expect.poll(() => paused.closed, { timeout: 10_000 }).not.toBeNull();
    reading.close();
  }, 60_000);
});
