/**
 * The websocket manager (docs/product.md §4, docs/protocol.md §3.5–§3.10): fetches a URL, opens a socket,
 * subscribes, heartbeats, and reconnects — through a secondary socket while the primary is
 * still open (hand-over), or from scratch when the only open socket closes. It never gives up
 * while running (issue 9): a URL fetch that fails for any but a definite reason (a 4xx such as
 * 403 AccessDenied) is retried on the backoff, 1 s doubling to 30 s ±30 %, for as long as it
 * takes; going online, the page becoming visible or the window regaining focus retries at once;
 * a socket whose subscription fails is replaced. On mobile (§3.9) a hidden page holds URL
 * fetches back while the connection is healthy.
 */
import { RESERVED_TOPICS, Topic } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { backoffDelayMs } from "../core/backoff.js";
import { Emitter } from "../core/emitter.js";
import { isFinalError } from "../core/errors.js";
import { withTimeout } from "../core/timeout.js";
import { noopLogger, resolveEnv } from "../env.js";
import type { ClientEnv, Logger, TimerHandle } from "../env.js";
import {
  CloseReason,
  FETCH_TIMEOUT_MS,
  FOREGROUND_DELAY_MS,
  NORMAL_CLOSURE,
  OPEN_CHECK_MS,
} from "./constants.js";
import { Connection } from "./connection.js";
import type { ConnectionHandlers } from "./connection.js";
import { WebSocketManagerError } from "./errors.js";
import type { ManagerEvents } from "./events.js";
import { createHeartbeat } from "./heartbeat.js";
import { readIncoming } from "./incoming.js";
import type { TopicFrame } from "./incoming.js";
import { isMobileUserAgent } from "./mobile.js";
import { createNetworkMonitor } from "./network-monitor.js";
import { createReconnectPolicy } from "./reconnect-policy.js";
import type { ReconnectPolicy } from "./reconnect-policy.js";
import { SocketPair } from "./socket-pair.js";
import { validateTransport } from "./transport.js";
import type { ValidTransport } from "./transport.js";
import type { TransportFetcher, WebSocketManager } from "./types.js";

/**
 * One state, changed only in `setState` (which logs `old -> new`). connecting, connected and
 * lost are running (the manager keeps a socket up); idle and closed can be started again with
 * `init`; terminated is for good.
 */
export type ManagerState = "idle" | "connecting" | "connected" | "lost" | "closed" | "terminated";

const RUNNING: ReadonlySet<ManagerState> = new Set(["connecting", "connected", "lost"]);

export interface WebSocketManagerOptions {
  env?: Partial<ClientEnv>;
  logger?: Logger;
  /** When to retry the same URL; defaults to 1 s doubling to 30 s, ±30 %, within 85 s. */
  reconnectPolicy?: ReconnectPolicy;
}

export interface DefaultWebSocketManager extends WebSocketManager {
  getState(): ManagerState;
  /**
   * The service just answered one of the session's HTTP requests. With no socket up and the
   * next try waiting on a backoff longer than its base, it is tried after the base delay
   * instead and the backoff starts again: a session is not left lost for up to 30 s while the
   * service answers (issue 23).
   */
  serviceAnswered(): void;
}

type InitResult = { websocketInitFailed: boolean; error?: unknown };

const LOG = "WebSocketManager:";

export function createWebSocketManager(
  options: WebSocketManagerOptions = {},
): DefaultWebSocketManager {
  const env = resolveEnv(options.env);
  const logger = options.logger ?? noopLogger;
  const policy = options.reconnectPolicy ?? createReconnectPolicy({ random: () => env.random() });
  const events = new Emitter<ManagerEvents>(logger);
  const topicListeners = new Emitter<Record<string, (frame: WebSocketEnvelope) => void>>(logger);
  const topics = new Set<string>();
  const sockets = new SocketPair();
  let fetcher: TransportFetcher | null = null;
  let state: ManagerState = "idle";
  let fetching: Promise<InitResult> | null = null;
  /** A URL fetch was skipped for being offline: the next online check retries it. */
  let skippedWhileOffline = false;
  let transport: (ValidTransport & { fetchedAt: number }) | null = null;
  let retryAttempt = 0;
  /** The pending retry (timer handles are never falsy: browsers' are positive, Node's objects). */
  let retryTimer: TimerHandle | undefined;
  let lifetimeTimer: TimerHandle | undefined;
  let heartbeatOwner: Connection | null = null;
  const mobile = isMobileUserAgent(env.userAgent());
  /** URL fetches failed since the last open; 0 is healthy. */
  let fetchFailures = 0;
  /** Mobile: the page went hidden while healthy; URL fetches wait until it is visible again. */
  let backgrounded = false;
  let foregroundTimer: TimerHandle | undefined;
  let stopPageListeners: (() => void) | undefined;
  const ok: InitResult = { websocketInitFailed: false };

  const setState = (next: ManagerState) => {
    if (next === state) return;
    logger.debug(`${LOG} ${state} -> ${next}`);
    state = next;
  };
  const isTerminated = () => state === "terminated";
  const isRunning = () => RUNNING.has(state);

  const heartbeat = createHeartbeat({
    env,
    isOpen: () => heartbeatOwner?.isOpen ?? false,
    send: (frame) => heartbeatOwner?.send(frame),
    onDeepSuccess: () => events.emit("deepHeartbeatSuccess"),
    onDeepFailure: () => events.emit("deepHeartbeatFailure"),
    onTimeout: () => onHeartbeatTimeout(),
  });

  const reconnectIfDown = (reason: string) => {
    if (!sockets.hasUsable() && !sockets.attemptInFlight()) void fetchAndConnect(reason);
  };

  const network = createNetworkMonitor({
    env,
    onOnline: () => {
      logger.info(`${LOG} network is online`);
      reconnectIfDown("network online");
    },
    onOffline: () => logger.info(`${LOG} network is offline`),
    onTick: () => {
      heartbeat.checkOverdue();
      // An outage shorter than one check is never seen as a change: retry what it skipped.
      if (skippedWhileOffline && env.isOnline()) {
        skippedWhileOffline = false;
        reconnectIfDown("online");
      }
    },
  });

  const onVisibilityChange = () => {
    env.clearTimeout(foregroundTimer);
    if (!mobile) {
      if (!env.isHidden()) reconnectIfDown("page visible");
      return;
    }
    if (env.isHidden()) {
      if (!fetchFailures) backgrounded = true;
      return;
    }
    foregroundTimer = env.setTimeout(() => {
      backgrounded = false;
      reconnectIfDown("page visible");
    }, FOREGROUND_DELAY_MS);
  };
  const onFocus = () => {
    if (!backgrounded) reconnectIfDown("window focus");
  };

  const clearRetry = () => {
    if (retryTimer !== undefined) env.clearTimeout(retryTimer);
    retryTimer = undefined;
  };
  const setRetry = (retry: () => unknown, delay: number) => {
    clearRetry();
    retryTimer = env.setTimeout(() => {
      retryTimer = undefined;
      retry();
    }, delay);
  };
  const clearLifetime = () => {
    if (lifetimeTimer !== undefined) env.clearTimeout(lifetimeTimer);
    lifetimeTimer = undefined;
  };

  const drop = (connection: Connection, code?: number, reason?: string) => {
    connection.retire(code, reason);
    sockets.remove(connection);
    if (heartbeatOwner === connection) {
      heartbeat.stop();
      heartbeatOwner = null;
    }
  };

  const stopAll = (reason: string) => {
    clearRetry();
    clearLifetime();
    heartbeat.stop();
    heartbeatOwner = null;
    network.stop();
    stopPageListeners?.();
    stopPageListeners = undefined;
    env.clearTimeout(foregroundTimer);
    backgrounded = false;
    fetchFailures = 0;
    for (const connection of sockets.clear()) connection.retire(NORMAL_CLOSURE, reason);
  };

  const terminateWith = (error: unknown): InitResult => {
    logger.error(`${LOG} init failed, terminating`, error);
    terminate();
    events.emit("initFailure", error);
    return { websocketInitFailed: true, error };
  };

  function fetchAndConnect(reason: string): Promise<InitResult> {
    if (isTerminated()) return Promise.resolve(terminatedResult());
    if (!isRunning() || !fetcher) return Promise.resolve(ok);
    if (fetching) return fetching;
    if (backgrounded) {
      logger.info(`${LOG} page hidden, no URL fetch (${reason})`);
      return Promise.resolve(ok);
    }
    if (!env.isOnline()) {
      logger.info(`${LOG} offline, no URL fetch (${reason})`);
      skippedWhileOffline = true;
      return Promise.resolve(ok);
    }
    skippedWhileOffline = false;
    clearRetry();
    logger.info(`${LOG} URL fetch (${reason})`);
    const fetchTransport = fetcher;
    const run = async (): Promise<InitResult> => {
      let response: Awaited<ReturnType<TransportFetcher>>;
      try {
        // An app's fetcher (getConnectionToken) may hang on a dead network.
        response = await withTimeout(
          env,
          FETCH_TIMEOUT_MS,
          (async () => fetchTransport())(),
          () =>
            new WebSocketManagerError(
              "FETCH_TIMEOUT",
              `No websocket URL within ${FETCH_TIMEOUT_MS} ms`,
            ),
        );
      } catch (error) {
        fetching = null;
        if (!isRunning()) return isTerminated() ? terminatedResult() : ok;
        if (isFinalError(error)) return terminateWith(error);
        const delay = backoffDelayMs(fetchFailures++, () => env.random());
        logger.warn(`${LOG} URL fetch failed, retry in ${delay} ms`, error);
        setRetry(() => fetchAndConnect("retry"), delay);
        return ok;
      }
      fetching = null;
      if (isTerminated()) return terminatedResult();
      if (!isRunning()) return ok;
      const valid = validateTransport(response?.webSocketTransport);
      if (valid instanceof WebSocketManagerError) return terminateWith(valid);
      transport = { ...valid, fetchedAt: env.now() };
      retryAttempt = 0;
      return openSocket();
    };
    fetching = run();
    return fetching;
  }

  function openSocket(): InitResult {
    if (!transport || !isRunning()) return ok;
    clearRetry();
    for (const stale of sockets.toReplace()) drop(stale);
    let socket;
    try {
      socket = new env.WebSocket(transport.url);
    } catch (cause) {
      return terminateWith(
        new WebSocketManagerError("SOCKET_CREATE_FAILED", "Failed to create the WebSocket", {
          cause,
        }),
      );
    }
    const connection: Connection = new Connection(socket, env, handlers, {
      onSubscribed: (listed) => {
        events.emit("subscriptionUpdate", listed);
        completeHandOver(connection);
      },
      onFailure: (failed) => {
        logger.error(`${LOG} subscription failed, replacing socket`, failed);
        events.emit("subscriptionFailure", failed);
        // The server streams nothing to a socket it never confirmed: treat it as closed.
        if (!connection.retired) {
          handlers.onClose(connection, { code: NORMAL_CLOSURE, reason: "subscription failed" });
        }
      },
    });
    sockets.add(connection);
    connection.openCheck = env.setTimeout(() => {
      // Cleared when the socket opens or is retired: it is still connecting. A loaded server
      // may take longer to answer the upgrade (issue 23).
      // Dropping it would make every attempt fail alike while the backoff grows; it keeps
      // going, and the retry replaces it only if it has not opened by then.
      logger.warn(`${LOG} not open after ${OPEN_CHECK_MS} ms, retry`);
      scheduleRetry();
      // No retry to replace it (offline, or a hidden mobile page, with the URL expired): give
      // it up, so that going online or visible is not held back by an attempt that may hang.
      if (!retryTimer && !fetching) drop(connection);
    }, OPEN_CHECK_MS);
    return ok;
  }

  /** Retry the same URL after the policy's delay, or fetch a new URL once it is too old. */
  function scheduleRetry(): void {
    if (!isRunning()) return;
    if (!transport) {
      void fetchAndConnect("no websocket URL");
      return;
    }
    const elapsedMs = env.now() - transport.fetchedAt;
    const delay = policy.nextDelayMs({ attempt: retryAttempt, elapsedMs });
    if (delay === null) {
      void fetchAndConnect("URL expired");
      return;
    }
    retryAttempt += 1;
    logger.info(`${LOG} retry URL in ${delay} ms`);
    setRetry(openSocket, delay);
  }

  /** The secondary confirmed every topic: close the primary and let the secondary take over. */
  function completeHandOver(connection: Connection): void {
    const primary = sockets.handOverReady(connection, topics);
    if (!primary) return;
    logger.info(`${LOG} secondary subscribed, closing primary`);
    drop(primary, NORMAL_CLOSURE, CloseReason.HAND_OVER);
  }

  function onHeartbeatTimeout(): void {
    const owner = heartbeatOwner;
    heartbeatOwner = null;
    if (!owner) return;
    if (!owner.isOpen) {
      handlers.onClose(owner, { code: 0, reason: "WebSocket not open at heartbeat" });
      return;
    }
    logger.warn(`${LOG} heartbeat unanswered, reconnecting`);
    owner.stale = true;
    void fetchAndConnect("heartbeat timeout");
  }

  const handlers: ConnectionHandlers = {
    onOpen(connection) {
      connection.clearOpenCheck();
      clearRetry();
      connection.opened = true;
      retryAttempt = fetchFailures = 0;
      const handOver = sockets.open().some((c) => c !== connection);
      logger.info(`${LOG} ${handOver ? "secondary " : ""}WebSocket open`);
      connection.subscriptions.request(topics);
      heartbeat.stop();
      heartbeatOwner = connection;
      heartbeat.start();
      clearLifetime();
      const lifetimeMs = transport?.lifetimeMs;
      if (lifetimeMs !== undefined) {
        lifetimeTimer = env.setTimeout(() => {
          lifetimeTimer = undefined;
          void fetchAndConnect("transport lifetime");
        }, lifetimeMs);
      }
      setState("connected");
      events.emit("connectionGain");
      if (topics.size === 0) completeHandOver(connection);
    },
    onClose(connection, event) {
      if (connection.retired) return;
      const wasOpen = connection.opened;
      const wasSecondary = sockets.isSecondary(connection);
      drop(connection);
      if (!wasOpen) {
        logger.warn(`${LOG} closed unopened (code ${event.code})`);
        // Its open check may have scheduled the retry already: one retry per attempt.
        if (!retryTimer) scheduleRetry();
        return;
      }
      logger.info(`${LOG} WebSocket closed (code ${event.code}, reason "${event.reason}")`);
      const stillOpen = sockets.open();
      if (stillOpen.length > 0) {
        const next = stillOpen.filter((c) => !c.stale).at(-1);
        if (!heartbeatOwner && next) {
          heartbeatOwner = next;
          heartbeat.start();
        }
        if (wasSecondary) void fetchAndConnect("secondary closed");
        return;
      }
      if (state === "connected") {
        setState("lost");
        events.emit("connectionLost", { reason: event.reason });
      }
      if (!sockets.attemptInFlight()) void fetchAndConnect("connection lost");
    },
    onError(_connection, event) {
      const message = (event as { message?: unknown } | null)?.message;
      logger.warn(`${LOG} WebSocket error`, typeof message === "string" ? message : "");
    },
    onMessage(connection, data) {
      const frame = readIncoming(data, logger);
      if (frame) routeFrame(connection, frame);
    },
  };

  function routeFrame(connection: Connection, frame: TopicFrame): void {
    const { topic } = frame;
    if (connection.subscriptions.handleFrame(frame)) return;
    if (topic === Topic.HEARTBEAT || topic === Topic.PING) {
      if (connection === heartbeatOwner) heartbeat.handleFrame(frame);
      return;
    }
    // During a hand-over the secondary carries what both are subscribed to.
    if (sockets.primary === connection && sockets.secondary?.subscriptions.isSubscribed(topic)) {
      return;
    }
    topicListeners.emit(topic, frame);
    events.emit("allMessage", frame);
  }

  function terminatedResult(): InitResult {
    return {
      websocketInitFailed: true,
      error: new WebSocketManagerError("TERMINATED", "The WebSocket manager was terminated"),
    };
  }

  function terminate(): void {
    if (isTerminated()) return;
    logger.info(`${LOG} terminating`);
    setState("terminated");
    fetcher = null;
    stopAll(CloseReason.TERMINATE);
  }

  return {
    init(newFetcher) {
      if (isTerminated()) return Promise.resolve(terminatedResult());
      fetcher = newFetcher;
      if (isRunning()) return fetching ?? Promise.resolve(ok);
      setState("connecting");
      network.start();
      const stopVisibility = env.onVisibilityChange(onVisibilityChange);
      const stopFocus = env.onFocus(onFocus);
      stopPageListeners = () => {
        stopVisibility();
        stopFocus();
      };
      return fetchAndConnect("init");
    },
    subscribeTopics(list) {
      for (const topic of list) topics.add(topic);
      sockets.active()?.subscriptions.request(list);
    },
    sendMessage(frame) {
      const topic = frame?.topic;
      if (typeof topic !== "string" || RESERVED_TOPICS.includes(topic)) {
        logger.error(`${LOG} cannot send a frame on topic ${String(topic)}`);
        return;
      }
      heartbeat.checkOverdue();
      const target = sockets.active();
      if (!target) {
        logger.warn(`${LOG} cannot send, no open WebSocket`);
        return;
      }
      target.send(frame);
    },
    onMessage: (topic, cb) => topicListeners.on(topic, cb),
    onAllMessage: (cb) => events.on("allMessage", cb),
    onConnectionGain: (cb) => events.on("connectionGain", cb),
    onConnectionLost: (cb) => events.on("connectionLost", cb),
    onInitFailure: (cb) => events.on("initFailure", cb),
    onDeepHeartbeatSuccess: (cb) => events.on("deepHeartbeatSuccess", cb),
    onDeepHeartbeatFailure: (cb) => events.on("deepHeartbeatFailure", cb),
    onSubscriptionUpdate: (cb) => events.on("subscriptionUpdate", cb),
    onSubscriptionFailure: (cb) => events.on("subscriptionFailure", cb),
    closeWebSocket() {
      if (isTerminated()) return;
      logger.info(`${LOG} closing (user request)`);
      setState("closed");
      stopAll(CloseReason.USER_REQUEST);
    },
    terminate,
    getState: () => state,
    serviceAnswered() {
      // A retry is waiting on a grown backoff (2 s or more), with no socket at all: not one
      // still connecting (the retry would replace it sooner), not one open.
      if (!retryTimer || sockets.primary || retryAttempt + fetchFailures < 2) return;
      retryAttempt = fetchFailures = 0;
      scheduleRetry();
    },
  };
}
