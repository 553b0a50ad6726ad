/**
 * The host's network as the chat client sees it, switched by the test, and a socket class
 * that holds `aws/subscribe` frames back (a slow subscribe) until the test releases them.
 */
import type { WebSocketConstructor } from "@chat-widget/chat-client";
import WebSocket from "ws";

/** A host whose network the test switches off and on (the client polls isOnline every 250 ms). */
export class Network {
  online = true;
  readonly isOnline = () => this.online;
}

/** Long enough for the client's 250 ms network check to notice a change. */
export const networkCheck = () => new Promise((resolve) => setTimeout(resolve, 600));

/** While `held`, subscribe frames wait; `release` sends them in order. */
export class SubscribeGate {
  held = false;
  private queued: (() => void)[] = [];

  readonly WebSocket: WebSocketConstructor = (() => {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the class below reads the gate
    const gate = this;
    class GatedSocket extends WebSocket {
      override send(data: unknown): void {
        const frame = String(data);
        if (gate.held && frame.includes('"aws/subscribe"')) {
          gate.queued.push(() => super.send(frame));
          return;
        }
        super.send(data as string);
      }
    }
    return GatedSocket as unknown as WebSocketConstructor;
  })();

  /** How many subscribe frames are waiting. */
  get waiting(): number {
    return this.queued.length;
  }

  release(): void {
    this.held = false;
    const queued = this.queued;
    this.queued = [];
    for (const send of queued) send();
  }
}
