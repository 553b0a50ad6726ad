/**
 * Two connected in-memory ports for running the telemetry worker in the page. Delivery is
 * synchronous but never re-entrant: a message posted while another is being delivered
 * waits its turn, so both sides see messages in the order they were posted.
 */
import type { PortLike } from "./worker-protocol.js";

class LoopbackPort implements PortLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  peer: LoopbackPort | null = null;
  private closed = false;

  constructor(private readonly pump: (deliver: () => void) => void) {}

  postMessage(message: unknown): void {
    const target = this.peer;
    if (this.closed || !target) return;
    this.pump(() => {
      if (!target.closed) target.onmessage?.({ data: message });
    });
  }

  close(): void {
    this.closed = true;
  }
}

export function createLoopbackPorts(): [PortLike, PortLike] {
  const queue: (() => void)[] = [];
  let delivering = false;
  const pump = (deliver: () => void): void => {
    queue.push(deliver);
    if (delivering) return;
    delivering = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          next();
        } catch {
          // A failing handler must not block the messages after it.
        }
      }
    } finally {
      delivering = false;
    }
  };
  const a = new LoopbackPort(pump);
  const b = new LoopbackPort(pump);
  a.peer = b;
  b.peer = a;
  return [a, b];
}
