/**
 * Publishes the session's websocket lifecycle as Count metrics (docs/product.md §7): namespace
 * `chat-widget`, dimension `WidgetType`. The session is typed by the events it offers, so
 * this file does not depend on the session code.
 */
import type { Telemetry } from "./telemetry-client.js";

export const SessionMetricName = {
  ConnectionGained: "WebsocketConnectionGained",
  ConnectionLost: "WebsocketConnectionLost",
  IncomingMessage: "WebsocketIncomingMessage",
  DeepHeartbeatSuccess: "WebsocketDeepHeartbeatSuccess",
  DeepHeartbeatFailure: "WebsocketDeepHeartbeatFailure",
  Ended: "WebsocketEnded",
} as const;

type Subscribe = (callback: (...args: unknown[]) => void) => () => void;

/** What a chat session offers: each subscription returns its unsubscribe function. */
export interface SessionMetricSource {
  onConnectionEstablished: Subscribe;
  onConnectionLost: Subscribe;
  onMessage: Subscribe;
  onDeepHeartbeatSuccess: Subscribe;
  onDeepHeartbeatFailure: Subscribe;
  onEnded: Subscribe;
}

/** Count each session event; returns a function that stops counting. */
export function attachSessionMetrics(
  session: SessionMetricSource,
  telemetry: Pick<Telemetry, "addCountMetric">,
): () => void {
  const count = (metricName: string) => () => telemetry.addCountMetric(metricName);
  const subscriptions = [
    session.onConnectionEstablished(count(SessionMetricName.ConnectionGained)),
    session.onConnectionLost(count(SessionMetricName.ConnectionLost)),
    session.onMessage(count(SessionMetricName.IncomingMessage)),
    session.onDeepHeartbeatSuccess(count(SessionMetricName.DeepHeartbeatSuccess)),
    session.onDeepHeartbeatFailure(count(SessionMetricName.DeepHeartbeatFailure)),
    session.onEnded(count(SessionMetricName.Ended)),
  ];
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}
