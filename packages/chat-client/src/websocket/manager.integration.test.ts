/**
 * The manager against a real `ws` server over loopback. Time is compressed fivefold through the
 * injected env (a 10 s heartbeat takes 2 s), so hand-overs are seen in seconds; the exact
 * timings are proven with fake timers in the other tests.
 */
import { Topic, chatFrame } from "@chat-widget/protocol";
import type { Item, WebSocketEnvelope } from "@chat-widget/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import type { ClientEnv, WebSocketConstructor } from "../env.js";
import { CloseReason } from "./constants.js";
import { createWebSocketManager } from "./manager.js";
import { startLoopbackServer } from "./test-support/loopback-server.js";
import type { DefaultWebSocketManager } from "./manager.js";

const SPEED = 5;

/** Real timers and clock, running SPEED times faster. */
function compressedTime(): Partial<ClientEnv> {
  const start = Date.now();
  return {
    setTimeout: (fn, ms) => setTimeout(fn, ms / SPEED),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    setInterval: (fn, ms) => setInterval(fn, ms / SPEED),
    clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
    now: () => start + (Date.now() - start) * SPEED,
  };
}

const item = (id: string): Item => ({
  Id: id,
  Type: "MESSAGE",
  ContentType: "text/plain",
  Content: `hello ${id}`,
  AbsoluteTime: new Date(0).toISOString(),
  ParticipantRole: "AGENT",
  DisplayName: "Sam",
  ParticipantId: "agent-1",
  ContactId: "contact-1",
  InitialContactId: "contact-1",
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function setup() {
  const server = await startLoopbackServer();
  let fetches = 0;
  const fetcher = vi.fn(async () => ({
    webSocketTransport: {
      url: server.urlFor(`t${++fetches}`),
      transportLifeTimeInSeconds: 3540,
    },
  }));
  const manager: DefaultWebSocketManager = createWebSocketManager({
    env: {
      ...compressedTime(),
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      isOnline: () => true,
    },
  });
  const seen = { gain: 0, lost: 0, deepSuccess: 0, chat: [] as WebSocketEnvelope[] };
  manager.onConnectionGain(() => seen.gain++);
  manager.onConnectionLost(() => seen.lost++);
  manager.onDeepHeartbeatSuccess(() => seen.deepSuccess++);
  manager.onMessage(Topic.CHAT, (frame) => seen.chat.push(frame));
  manager.subscribeTopics([Topic.CHAT]);
  cleanup = async () => {
    manager.terminate();
    await server.close();
  };
  return { server, manager, fetcher, seen };
}

const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

/** Server-side sockets that subscribed to aws/chat, oldest first (skips abandoned attempts). */
const subscribed = (server: Awaited<ReturnType<typeof startLoopbackServer>>) =>
  server.connections.filter((c) => c.subscribed.has(Topic.CHAT));

describe("websocket manager over loopback with a real ws server", () => {
  it("connects, subscribes to aws/chat, heartbeats and receives aws/chat frames", async () => {
    const { server, manager, fetcher, seen } = await setup();
    expect(await manager.init(fetcher)).toEqual({ websocketInitFailed: false });
    await waitFor(() => expect(subscribed(server)).toHaveLength(1));
    await waitFor(() => expect(seen.deepSuccess).toBeGreaterThan(0));
    const topics = subscribed(server)[0]!.received.map((f) => f.topic);
    expect(topics.slice(0, 3)).toEqual([Topic.SUBSCRIBE, Topic.PING, Topic.HEARTBEAT]);
    expect(subscribed(server)[0]!.url).toBe("/ws?token=t1");
    expect(seen.gain).toBe(1);
    server.pushChat(chatFrame(item("m1")));
    await waitFor(() => expect(seen.chat).toHaveLength(1));
    expect(JSON.parse(seen.chat[0]!.content as string)).toMatchObject({ Id: "m1" });
    expect(manager.getState()).toBe("connected");
  });

  it("reconnects after the server closes the socket: connection lost once, then gained, with a new URL", async () => {
    const { server, manager, fetcher, seen } = await setup();
    await manager.init(fetcher);
    await waitFor(() => expect(subscribed(server)).toHaveLength(1));
    subscribed(server)[0]!.socket.close(1011, "server going away");
    await waitFor(() => expect(seen.gain).toBe(2));
    expect(seen.lost).toBe(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(subscribed(server)).toHaveLength(2));
    expect(subscribed(server)[1]!.url).toBe("/ws?token=t2");
    server.pushChat(chatFrame(item("after-reconnect")));
    await waitFor(() => expect(seen.chat).toHaveLength(1));
  });

  it("hands over to a secondary socket when the heartbeat goes unanswered, closing the primary with 1000 and no connection lost", async () => {
    const { server, manager, fetcher, seen } = await setup();
    await manager.init(fetcher);
    await waitFor(() => expect(subscribed(server)).toHaveLength(1));
    const primary = subscribed(server)[0]!;
    primary.answerHeartbeats = false;
    await waitFor(() =>
      expect(primary.closed).toEqual({ code: 1000, reason: CloseReason.HAND_OVER }),
    );
    const secondary = subscribed(server)[1]!;
    expect(secondary.url).toBe("/ws?token=t2");
    expect(secondary.closed).toBeNull();
    expect(seen.lost).toBe(0);
    expect(seen.gain).toBe(2);
    expect(fetcher).toHaveBeenCalledTimes(2);
    server.pushChat(chatFrame(item("via-secondary")));
    await waitFor(() => expect(seen.chat).toHaveLength(1));
    expect(manager.getState()).toBe("connected");
  });

  it("closeWebSocket closes the socket with 1000 and the user-request reason", async () => {
    const { server, manager, fetcher } = await setup();
    await manager.init(fetcher);
    await waitFor(() => expect(subscribed(server)).toHaveLength(1));
    manager.closeWebSocket();
    await waitFor(() =>
      expect(subscribed(server)[0]?.closed).toEqual({
        code: 1000,
        reason: "[Primary] WebSocket User request to close WebSocket",
      }),
    );
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
