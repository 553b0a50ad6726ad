/**
 * The session's metric events from the moment the session exists: the telemetry script loads
 * later, so events that fire before it subscribes (the first connection) are kept and replayed.
 */
import type { SessionMetricSource } from "@chat-widget/chat-client";

type EventName = keyof SessionMetricSource;
type Listener = (...args: unknown[]) => void;

export const SESSION_METRIC_EVENTS: readonly EventName[] = [
  "onConnectionEstablished",
  "onConnectionLost",
  "onMessage",
  "onDeepHeartbeatSuccess",
  "onDeepHeartbeatFailure",
  "onEnded",
];

/** At most this many events wait for the telemetry script; later ones are dropped. */
export const BUFFER_LIMIT = 200;

export interface BufferedSource {
  readonly source: SessionMetricSource;
  /** Unsubscribe from the session and drop what is buffered. */
  dispose(): void;
}

export function bufferSessionEvents(session: SessionMetricSource): BufferedSource {
  const listeners = new Map<EventName, Set<Listener>>();
  let buffered: { name: EventName; args: unknown[] }[] = [];
  let live = true;

  const emit = (name: EventName, args: unknown[]) => {
    if (!live) return;
    const set = listeners.get(name);
    if (set && set.size > 0) for (const listener of [...set]) listener(...args);
    else if (buffered.length < BUFFER_LIMIT) buffered.push({ name, args });
  };
  const subscriptions = SESSION_METRIC_EVENTS.map((name) =>
    session[name]((...args: unknown[]) => emit(name, args)),
  );

  const subscribe =
    (name: EventName) =>
    (listener: Listener): (() => void) => {
      const set = listeners.get(name) ?? new Set<Listener>();
      listeners.set(name, set);
      set.add(listener);
      const replay = buffered.filter((event) => event.name === name);
      buffered = buffered.filter((event) => event.name !== name);
      for (const event of replay) listener(...event.args);
      return () => set.delete(listener);
    };

  const source = Object.fromEntries(
    SESSION_METRIC_EVENTS.map((name) => [name, subscribe(name)]),
  ) as unknown as SessionMetricSource;

  return {
    source,
    dispose() {
      if (!live) return;
      live = false;
      buffered = [];
      listeners.clear();
      for (const unsubscribe of subscriptions) unsubscribe();
    },
  };
}
