/**
 * The widget's telemetry (docs/product.md §7, docs/decisions.md #10): once a chat session exists, load
 * `chat-telemetry.js`, create one telemetry for the page and count the session's websocket
 * events, authenticated with the chat's ParticipantToken (the telemetry `/auth` takes nothing
 * else). Off with `data-telemetry="off"`. Closed (its batch flushed) on `pagehide`; a page
 * restored from the back/forward cache opens a new one, and the sessions count into it again.
 * Every failure only logs: telemetry never breaks a chat.
 */
import type { SessionMetricSource, Telemetry } from "@chat-widget/chat-client";
import type { Logger } from "../logger.js";
import { bufferSessionEvents } from "./buffered-source.js";
import type { TelemetryModule } from "./contract.js";

export const TELEMETRY_FAILED = "Telemetry failed";

export interface WidgetTelemetryOptions {
  enabled: boolean;
  /** Telemetry base URL; the client posts to its `/auth`, `/put-metrics` and `/put-workflow-events`. */
  endpoint: string;
  logger: Logger;
  /**
   * False: run telemetry in the page, never in a Blob-URL SharedWorker (a page that gives the
   * widget a CSP nonce has a strict policy, which would refuse the worker). Default true.
   */
  useSharedWorker?: boolean;
  /** Load the telemetry script (once); null when it could not be loaded. */
  load: () => Promise<TelemetryModule | null>;
  /** Run `callback` when the page is hidden for good or for the back/forward cache. */
  onPageHide: (callback: () => void) => void;
  /** Run `callback` when the page is shown again from the back/forward cache. */
  onPageRestore: (callback: () => void) => void;
}

export interface WidgetTelemetry {
  /**
   * Count this session's events, sent under its chat's `participantToken`; returns a function
   * that stops counting.
   */
  attach(session: SessionMetricSource, participantToken: string): () => void;
}

const NOOP = () => {};

export function createWidgetTelemetry(options: WidgetTelemetryOptions): WidgetTelemetry {
  const { logger } = options;
  let loading: Promise<TelemetryModule | null> | null = null;
  let module: TelemetryModule | null = null;
  let telemetry: Telemetry | null = null;
  let hidden = false;
  /** The latest chat's token: every telemetry of the page authenticates with it. */
  let participantToken: string | null = null;

  const fail = (error: unknown) => {
    try {
      logger.warn(TELEMETRY_FAILED, error);
    } catch {
      // A throwing logger must not break a chat.
    }
  };

  /** The token the current telemetry was given (each token once: every setAuth is an `/auth`). */
  let authenticated: string | null = null;
  const authenticate = () => {
    if (!telemetry || !participantToken || authenticated === participantToken) return;
    authenticated = participantToken;
    telemetry.setAuth({ participantToken });
  };
  const open = (loaded: TelemetryModule) => {
    if (hidden || telemetry) return;
    telemetry = loaded.createTelemetry({
      endpoint: options.endpoint,
      logger,
      useSharedWorker: options.useSharedWorker ?? true,
    });
    authenticated = null;
    authenticate();
  };
  const close = () => {
    hidden = true;
    const current = telemetry;
    telemetry = null;
    try {
      current?.close();
    } catch (error) {
      fail(error);
    }
  };
  const restore = () => {
    hidden = false;
    try {
      if (module) open(module);
    } catch (error) {
      fail(error);
    }
  };
  /** What the sessions count into: the page's telemetry of the moment (none while hidden). */
  const counter: Pick<Telemetry, "addCountMetric"> = {
    addCountMetric: (metricName, dimensions) => telemetry?.addCountMetric(metricName, dimensions),
  };

  const start = (): Promise<TelemetryModule | null> => {
    loading ??= (async () => {
      options.onPageHide(close);
      options.onPageRestore(restore);
      const loaded = await options.load();
      if (!loaded) return null;
      open(loaded);
      module = loaded;
      return loaded;
    })().catch((error: unknown) => {
      fail(error);
      return null;
    });
    return loading;
  };

  return {
    attach(session, token) {
      if (!options.enabled) return NOOP;
      participantToken = token;
      let buffer: ReturnType<typeof bufferSessionEvents>;
      try {
        buffer = bufferSessionEvents(session);
      } catch (error) {
        fail(error);
        return NOOP;
      }
      let detached = false;
      let detach: () => void = NOOP;
      void start().then((loaded) => {
        if (detached) return;
        if (!loaded) {
          buffer.dispose();
          return;
        }
        try {
          authenticate();
          detach = loaded.attachSessionMetrics(buffer.source, counter);
        } catch (error) {
          fail(error);
          buffer.dispose();
        }
      });
      return () => {
        if (detached) return;
        detached = true;
        try {
          detach();
        } catch (error) {
          fail(error);
        }
        buffer.dispose();
      };
    },
  };
}
