/**
 * A manager wired to FakeWebSocket, a scripted fetcher and recording callbacks, for the
 * fake-timer tests. Time starts at 0; `flush()` lets promise callbacks (the fetch) run.
 */
import { Topic, pingResponseFrame, subscribeResponseFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { vi } from "vitest";
import { toRequestError } from "../../core/errors.js";
import type { Logger } from "../../env.js";
import { createWebSocketManager } from "../manager.js";
import type { WebSocketTransport } from "../types.js";
import { FakeWebSocket } from "./fake-websocket.js";

export const TEST_URL = "wss://transport.example.com/ws?token=t";
export const DESKTOP_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
export const MOBILE_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

export interface HarnessOptions {
  transport?: Partial<WebSocketTransport> | (() => Partial<WebSocketTransport>);
  random?: number;
  /** Defaults to a desktop browser's. */
  userAgent?: string;
}

/** The page's visibility and the window's focus as the manager sees them through the env. */
function createPage() {
  const listeners = new Set<() => void>();
  const focusListeners = new Set<() => void>();
  const page = {
    hidden: false,
    listeners,
    focusListeners,
    /** The page becomes hidden or visible: fires visibilitychange. */
    set(hidden: boolean) {
      page.hidden = hidden;
      for (const listener of [...listeners]) listener();
    },
    /** The window regains focus. */
    focus() {
      for (const listener of [...focusListeners]) listener();
    },
    env: {
      isHidden: () => page.hidden,
      onVisibilityChange(listener: () => void) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      onFocus(listener: () => void) {
        focusListeners.add(listener);
        return () => void focusListeners.delete(listener);
      },
    },
  };
  return page;
}

export function createHarness(options: HarnessOptions = {}) {
  FakeWebSocket.reset();
  const logger = {
    debug: vi.fn<Logger["debug"]>(),
    info: vi.fn<Logger["info"]>(),
    warn: vi.fn<Logger["warn"]>(),
    error: vi.fn<Logger["error"]>(),
  };
  const network = { online: true };
  const page = createPage();
  const fetchTimes: number[] = [];
  const transportOf = () => ({
    url: TEST_URL,
    transportLifeTimeInSeconds: 3540,
    ...(typeof options.transport === "function" ? options.transport() : options.transport),
  });
  const fetcher = vi.fn(async () => {
    fetchTimes.push(Date.now());
    return { webSocketTransport: transportOf() };
  });
  const manager = createWebSocketManager({
    env: {
      WebSocket: FakeWebSocket,
      random: () => options.random ?? 0.5,
      isOnline: () => network.online,
      userAgent: () => options.userAgent ?? DESKTOP_USER_AGENT,
      ...page.env,
    },
    logger,
  });
  const seen = {
    gain: [] as number[],
    lost: [] as { at: number; reason?: string }[],
    initFailure: [] as unknown[],
    deepSuccess: [] as number[],
    deepFailure: [] as number[],
    subscriptionUpdate: [] as string[][],
    subscriptionFailure: [] as { at: number; topics: string[] }[],
    chat: [] as WebSocketEnvelope[],
    all: [] as WebSocketEnvelope[],
  };
  manager.onConnectionGain(() => seen.gain.push(Date.now()));
  manager.onConnectionLost((info) => seen.lost.push({ at: Date.now(), reason: info?.reason }));
  manager.onInitFailure((error) => seen.initFailure.push(error));
  manager.onDeepHeartbeatSuccess(() => seen.deepSuccess.push(Date.now()));
  manager.onDeepHeartbeatFailure(() => seen.deepFailure.push(Date.now()));
  manager.onSubscriptionUpdate((topics) => seen.subscriptionUpdate.push(topics));
  manager.onSubscriptionFailure((topics) =>
    seen.subscriptionFailure.push({ at: Date.now(), topics }),
  );
  manager.onMessage(Topic.CHAT, (frame) => seen.chat.push(frame));
  manager.onAllMessage((frame) => seen.all.push(frame));
  return { manager, fetcher, fetchTimes, logger, network, page, seen };
}

/**
 * From now on every URL fetch fails with `error` (or what `error()` returns; recorded in
 * fetchTimes) until `succeed()`.
 */
/** The error a fetch that got no answer (network down) rejects with. */
export const failedToFetch = () => toRequestError("TypeError", "Failed to fetch");

export function failFetches(h: ReturnType<typeof createHarness>, error: unknown) {
  const original = h.fetcher.getMockImplementation()!;
  let failing = true;
  h.fetcher.mockImplementation(async () => {
    if (!failing) return original();
    h.fetchTimes.push(Date.now());
    throw typeof error === "function" ? (error as () => unknown)() : error;
  });
  return { succeed: () => (failing = false) };
}

/** Let pending promise callbacks run without moving the clock. */
export const flush = () => vi.advanceTimersByTimeAsync(0);

/** The server's side of docs/protocol.md §3.2 on a fake socket. */
export function confirmSubscription(ws: FakeWebSocket, topics: string[] = [Topic.CHAT]): void {
  ws.receive(subscribeResponseFrame("success", topics));
}
export function answerBeat(ws: FakeWebSocket): void {
  ws.receive(pingResponseFrame(200));
  ws.receive({ topic: Topic.HEARTBEAT });
}

/** Answer every subscribe, heartbeat and ping of this socket as a well-behaved server does. */
export function autoAnswer(ws: FakeWebSocket): void {
  const send = ws.send.bind(ws);
  ws.send = (data: string) => {
    send(data);
    const frame = JSON.parse(data) as WebSocketEnvelope;
    queueMicrotask(() => {
      if (ws.readyState !== 1) return;
      if (frame.topic === Topic.SUBSCRIBE) {
        const topics = (frame.content as { topics: string[] }).topics;
        ws.receive(subscribeResponseFrame("success", topics));
      } else if (frame.topic === Topic.HEARTBEAT) ws.receive({ topic: Topic.HEARTBEAT });
      else if (frame.topic === Topic.PING) ws.receive(pingResponseFrame(200));
    });
  };
}

/** init + open the first socket (and subscribe to aws/chat first). */
export async function connected(h: ReturnType<typeof createHarness>, auto = false) {
  h.manager.subscribeTopics([Topic.CHAT]);
  const result = h.manager.init(h.fetcher);
  await flush();
  const ws = FakeWebSocket.last;
  if (auto) autoAnswer(ws);
  ws.open();
  await flush();
  return { result: await result, ws };
}

export { FakeWebSocket };
