/**
 * The manager's events as one typed callback map. Subscribing returns an unsubscribe function;
 * a throwing callback is logged and never stops the others.
 */
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import type { Logger } from "../env.js";
import type { Unsubscribe } from "./types.js";

export interface ManagerEvents {
  /** Every application frame, whatever its topic. */
  allMessage: (frame: WebSocketEnvelope) => void;
  /** A socket opened (first open, reconnect, hand-over). */
  connectionGain: () => void;
  /** The only open socket closed; once per outage. */
  connectionLost: (info?: { reason?: string }) => void;
  /** The manager terminated while initialising (invalid config, fetch rejected, socket throws). */
  initFailure: (error?: unknown) => void;
  deepHeartbeatSuccess: () => void;
  deepHeartbeatFailure: () => void;
  /** Topics a subscribe response confirmed. */
  subscriptionUpdate: (topics: string[]) => void;
  /** Topics that could not be subscribed. */
  subscriptionFailure: (topics: string[]) => void;
}

export type EventName = keyof ManagerEvents;

export class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  constructor(private readonly logger: Logger) {}

  on<K extends keyof Events>(name: K, cb: Events[K]): Unsubscribe {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {
    for (const cb of [...(this.listeners.get(name) ?? [])]) {
      try {
        (cb as (...a: Parameters<Events[K]>) => void)(...args);
      } catch (error) {
        this.logger.error(`WebSocketManager: a ${String(name)} callback threw`, error);
      }
    }
  }
}

/** Callbacks per frame topic (`onMessage(topic, cb)`). */
export class TopicListeners {
  private readonly byTopic = new Map<string, Set<(frame: WebSocketEnvelope) => void>>();

  constructor(private readonly logger: Logger) {}

  on(topic: string, cb: (frame: WebSocketEnvelope) => void): Unsubscribe {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  emit(topic: string, frame: WebSocketEnvelope): void {
    for (const cb of [...(this.byTopic.get(topic) ?? [])]) {
      try {
        cb(frame);
      } catch (error) {
        this.logger.error(`WebSocketManager: an onMessage callback for ${topic} threw`, error);
      }
    }
  }
}
