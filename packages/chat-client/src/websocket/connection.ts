/**
 * One websocket with what the manager keeps per socket: its subscriptions and whether it ever
 * opened. `retire` detaches every handler first, so closing it never looks like an outage.
 */
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import type { ClientEnv, TimerHandle, WebSocketLike } from "../env.js";
import { SOCKET_OPEN } from "./constants.js";
import { createSubscriptions } from "./subscriptions.js";
import type { Subscriptions, SubscriptionsOptions } from "./subscriptions.js";

export interface ConnectionHandlers {
  onOpen(connection: Connection): void;
  onClose(connection: Connection, event: { code: number; reason: string }): void;
  onError(connection: Connection, event: unknown): void;
  onMessage(connection: Connection, data: unknown): void;
}

export class Connection {
  readonly subscriptions: Subscriptions;
  /** The socket opened at some point. */
  opened = false;
  /** Its heartbeat went unanswered: open, but not to be trusted. */
  stale = false;
  /** Handed over, closed or abandoned: its events are ignored. */
  retired = false;
  openCheck: TimerHandle | undefined;

  readonly #env: Pick<ClientEnv, "setTimeout" | "clearTimeout">;
  constructor(
    readonly socket: WebSocketLike,
    env: Pick<ClientEnv, "setTimeout" | "clearTimeout">,
    handlers: ConnectionHandlers,
    subscriptionCallbacks: Pick<SubscriptionsOptions, "onSubscribed" | "onFailure">,
  ) {
    this.#env = env;
    this.subscriptions = createSubscriptions({
      env,
      send: (frame) => this.send(frame),
      ...subscriptionCallbacks,
    });
    socket.onopen = () => {
      if (!this.retired) handlers.onOpen(this);
    };
    socket.onclose = (ev) => {
      if (!this.retired) handlers.onClose(this, { code: ev?.code ?? 0, reason: ev?.reason ?? "" });
    };
    socket.onerror = (ev) => {
      if (!this.retired) handlers.onError(this, ev);
    };
    socket.onmessage = (ev) => {
      if (!this.retired) handlers.onMessage(this, ev?.data);
    };
  }

  get isOpen(): boolean {
    return this.socket.readyState === SOCKET_OPEN;
  }

  /** Open and trusted: a socket the manager can use. */
  get isUsable(): boolean {
    return !this.retired && this.isOpen && !this.stale;
  }

  send(frame: WebSocketEnvelope): void {
    if (this.isOpen) this.socket.send(JSON.stringify(frame));
  }

  clearOpenCheck(): void {
    if (this.openCheck !== undefined) this.#env.clearTimeout(this.openCheck);
    this.openCheck = undefined;
  }

  /** Stop everything of this socket and close it (its close event is then ignored). */
  retire(code?: number, reason?: string): void {
    if (this.retired) return;
    this.retired = true;
    this.clearOpenCheck();
    this.subscriptions.stop();
    const { socket } = this;
    // no-ops rather than null: some hosts (the `ws` package) throw on an unheard error event
    const ignore = () => {};
    socket.onopen = socket.onmessage = socket.onerror = ignore;
    socket.onclose = ignore;
    try {
      if (code === undefined) socket.close();
      else socket.close(code, reason);
    } catch {
      // closing a socket that is still connecting may throw in some hosts; it is gone anyway
    }
  }
}
