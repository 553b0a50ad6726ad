/**
 * A WebSocket the test drives by hand: `open()`, `receive(frame)`, `serverClose(code)`.
 * Every instance is recorded in `FakeWebSocket.instances`; `sent` holds the parsed frames.
 */
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import type { WebSocketLike } from "../../env.js";

export class FakeWebSocket implements WebSocketLike {
  static instances: FakeWebSocket[] = [];
  static reset(): void {
    FakeWebSocket.instances = [];
  }
  static get last(): FakeWebSocket {
    const ws = FakeWebSocket.instances.at(-1);
    if (!ws) throw new Error("no FakeWebSocket was created");
    return ws;
  }

  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number; reason: string; wasClean?: boolean }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  readonly rawSent: string[] = [];
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  get sent(): WebSocketEnvelope[] {
    return this.rawSent.map((raw) => JSON.parse(raw) as WebSocketEnvelope);
  }
  sentOn(topic: string): WebSocketEnvelope[] {
    return this.sent.filter((f) => f.topic === topic);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.rawSent.push(data);
  }

  close(code?: number, reason?: string): void {
    if (this.readyState === 3) return;
    this.closedWith = { code, reason };
    this.readyState = 3;
    this.onclose?.({ code: code ?? 1005, reason: reason ?? "", wasClean: true });
  }

  // ---- driven by the test ----
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: WebSocketEnvelope | string): void {
    this.onmessage?.({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }
  serverClose(code = 1006, reason = ""): void {
    this.readyState = 3;
    this.onclose?.({ code, reason, wasClean: false });
  }
  fail(): void {
    this.onerror?.({ message: "connection refused" });
    this.serverClose(1006);
  }
}
