/**
 * The participant's websocket, opened by the first script while chat-app.js downloads (issue
 * 61): the chat client then takes it as its own instead of opening one, a round trip later.
 * What happened on it before the client listened — its open, at most a few more events — is
 * handed to the client's handlers in order, just after it took the socket; from then on every
 * event goes straight through. Taken once.
 */
import type { WebSocketLike } from "@chat-widget/chat-client";

const KINDS = ["open", "message", "error", "close"] as const;
type Kind = (typeof KINDS)[number];
type Handler = ((event: never) => void) | null;
type Handlers = Record<`on${Kind}`, Handler>;

/**
 * Events kept for the client: the centre says nothing on a socket before it subscribes, so an
 * open and a close are all there is to keep; past this many the socket is closed and the
 * client opens one of its own.
 */
export const MAX_HELD_EVENTS = 8;

/** The part of a browser's WebSocket used here (the `ws` package's too, in tests). */
export interface EventSocket {
  readonly readyState: number;
  readonly url: string;
  addEventListener(kind: Kind, listener: (event: Event) => void): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface HeldSocket {
  /** The socket for the client, with what happened so far still to come; null once taken or spoilt. */
  take(): WebSocketLike | null;
  /** Nobody will take it: close it (nothing once taken). */
  drop(): void;
}

export function holdSocket(socket: EventSocket): HeldSocket {
  const held: [Kind, unknown][] = [];
  let taken: (WebSocketLike & Handlers) | null = null;
  let live = false;
  let spoilt = false;
  const deliver = (kind: Kind, event: unknown) =>
    (taken![`on${kind}`] as Handler)?.(event as never);
  for (const kind of KINDS)
    socket.addEventListener(kind, (event) => {
      if (live) deliver(kind, event);
      else if (taken || held.length < MAX_HELD_EVENTS) held.push([kind, event]);
      else if (!taken && !spoilt) {
        spoilt = true;
        socket.close();
      }
    });
  return {
    take() {
      if (taken || spoilt) return null;
      taken = {
        get readyState() {
          return socket.readyState;
        },
        url: socket.url,
        onopen: null,
        onmessage: null,
        onerror: null,
        onclose: null,
        send: (data) => socket.send(data),
        close: (code, reason) => (code === undefined ? socket.close() : socket.close(code, reason)),
      };
      // The client sets its handlers right after making the socket: what came before, then.
      queueMicrotask(() => {
        for (const [kind, event] of held.splice(0)) deliver(kind, event);
        live = true;
      });
      return taken;
    },
    drop() {
      if (taken) return;
      spoilt = true;
      socket.close();
    },
  };
}
