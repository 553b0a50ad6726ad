/**
 * What a websocket that stops reading may cost a process (issue 57: 200 paused sockets pinned
 * 785 MB of send buffers from one address). Two rules, for participant and advisor sockets:
 * - a socket whose unsent frames pass MAX_BUFFERED_BYTES is closed at the send that passed it;
 * - every WEBSOCKET_STALL_MS each socket is pinged, and one that has not answered the previous
 *   ping (its client reads nothing: the pong would come after everything queued before it) is
 *   closed. A browser, chatjs and the `ws` client answer pings by themselves.
 * Each close is counted (`chat_widget_refusals_total{kind="websocket_stalled"}`); the client
 * reconnects and repairs from the transcript, as after any cut.
 */
import type { WebSocket } from "ws";
import type { Refusals } from "../http/refusals.js";
import { startSweeper } from "../sweeper.js";

/** The most bytes a socket may hold unsent in this process (frames are at most ~64 KB each). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export class SocketWrites {
  /** Each open socket, and whether it answered the last ping. */
  private readonly sockets = new Map<WebSocket, { answered: boolean }>();

  constructor(private readonly refusals: Refusals) {}

  /** Watch an open socket until it closes. */
  track(socket: WebSocket): void {
    const state = { answered: true };
    this.sockets.set(socket, state);
    socket.on("pong", () => (state.answered = true));
    socket.once("close", () => this.sockets.delete(socket));
  }

  /** Send `text` if the socket is open; one that holds too much unsent is closed instead. */
  send(socket: WebSocket, text: string): void {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(text);
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) this.cut(socket);
  }

  /** One round: close each socket that did not answer the last ping, ping the others. */
  pingAll(): void {
    for (const [socket, state] of this.sockets) {
      if (!state.answered) {
        this.cut(socket);
        continue;
      }
      state.answered = false;
      if (socket.readyState === socket.OPEN) socket.ping();
    }
  }

  /** Ping every `stallMs`; returns the stop. */
  start(stallMs: number): () => Promise<void> {
    return startSweeper(
      stallMs,
      async () => this.pingAll(),
      () => {},
    );
  }

  get size(): number {
    return this.sockets.size;
  }

  private cut(socket: WebSocket): void {
    this.sockets.delete(socket);
    this.refusals.count("websocket_stalled");
    // No closing handshake: the peer reads nothing, and its buffers go with the connection.
    socket.terminate();
  }
}
