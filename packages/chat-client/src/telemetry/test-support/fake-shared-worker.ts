/** A SharedWorker stand-in whose replies the test controls. */
import type { PortLike } from "../worker-protocol.js";
import type { SharedWorkerLike } from "../worker-connection.js";

export interface FakeSharedWorker extends SharedWorkerLike {
  port: PortLike & { posted: Record<string, unknown>[]; started: boolean; closed: boolean };
  /** Deliver a message from the worker to the page. */
  reply(message: unknown): void;
  fail(error?: unknown): void;
}

export function fakeSharedWorker(): FakeSharedWorker {
  const port: FakeSharedWorker["port"] = {
    posted: [],
    started: false,
    closed: false,
    onmessage: null,
    postMessage(message) {
      port.posted.push(message as Record<string, unknown>);
    },
    start() {
      port.started = true;
    },
    close() {
      port.closed = true;
    },
  };
  const worker: FakeSharedWorker = {
    port,
    onerror: null,
    reply: (message) => port.onmessage?.({ data: message }),
    fail: (error = new Error("script failed to load")) => worker.onerror?.(error),
  };
  return worker;
}
