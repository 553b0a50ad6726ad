/** Pages connected to a telemetry host through real MessageChannel pairs (node's MessagePort). */
import type { TelemetryHost } from "../worker-host.js";
import type { PageToWorkerMessage, WorkerToPageMessage } from "../worker-protocol.js";

export interface TestPage {
  post(message: PageToWorkerMessage): void;
  received: WorkerToPageMessage[];
  /** Resolves with the next message matching `predicate` (already received ones count). */
  next(predicate?: (m: WorkerToPageMessage) => boolean): Promise<WorkerToPageMessage>;
  close(): void;
}

export function connectPage(host: TelemetryHost): TestPage {
  const { port1, port2 } = new MessageChannel();
  host.connect(port2);
  const received: WorkerToPageMessage[] = [];
  const waiters: {
    predicate: (m: WorkerToPageMessage) => boolean;
    resolve: (m: WorkerToPageMessage) => void;
  }[] = [];
  let consumed = 0;
  port1.onmessage = (event: MessageEvent) => {
    received.push(event.data as WorkerToPageMessage);
    for (const waiter of [...waiters]) {
      const found = received.slice(consumed).find(waiter.predicate);
      if (found) {
        consumed = received.indexOf(found) + 1;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  };
  return {
    post: (message) => port1.postMessage(message),
    received,
    next(predicate = () => true) {
      const found = received.slice(consumed).find(predicate);
      if (found) {
        consumed = received.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close() {
      port1.close();
      port2.close();
    },
  };
}

/** Poll (with real setImmediate, never faked here) until `condition` holds, for up to 10 s. */
export async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Give MessagePort deliveries and promise chains a few turns of the event loop. */
export async function turns(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}
