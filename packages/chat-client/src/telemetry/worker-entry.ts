/**
 * The SharedWorker script: every page that connects gets its port served by one telemetry
 * host. `worker-source.generated.ts` carries this file bundled, for a Blob-URL SharedWorker.
 */
import { createTelemetryHost } from "./worker-host.js";
import type { PortLike } from "./worker-protocol.js";

interface SharedWorkerScope {
  onconnect: ((event: { ports: readonly PortLike[] }) => void) | null;
}

// The worker's host environment: its own timers and fetch, read when used.
const host = createTelemetryHost({
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  fetch: (input, init) => globalThis.fetch(input, init),
});

(globalThis as unknown as SharedWorkerScope).onconnect = (event) => {
  const port = event.ports[0];
  if (port) host.connect(port);
};
