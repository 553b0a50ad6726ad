/**
 * The default way to start the telemetry SharedWorker: the bundled worker script
 * (`worker-source.generated.ts`) from a Blob URL, so it runs with the page's origin and
 * needs no separate file in any bundle. Where the host has no SharedWorker (or no Blob
 * URLs) there is no factory and telemetry runs in the page. A strict CSP without
 * `worker-src blob:` makes the worker fail, which the connection turns into the in-page
 * fallback.
 */
import { TELEMETRY_WORKER_NAME } from "./worker-connection.js";
import type { SharedWorkerFactory, SharedWorkerLike } from "./worker-connection.js";
import { TELEMETRY_WORKER_SOURCE } from "./worker-source.generated.js";

/** The globals this file reads; a parameter so tests can supply their own. */
export interface BlobWorkerHost {
  SharedWorker?: new (url: string, options?: { name?: string }) => SharedWorkerLike;
  Blob?: new (parts: string[], options?: { type?: string }) => Blob;
  URL?: { createObjectURL(blob: Blob): string };
}

/** The worker forgets its own Blob URL as soon as it runs. */
const REVOKE_OWN_URL = "try{URL.revokeObjectURL(self.location.href)}catch(e){}\n";

export function blobSharedWorkerFactory(
  host: BlobWorkerHost = globalThis,
  source: string = TELEMETRY_WORKER_SOURCE,
): SharedWorkerFactory | undefined {
  const { SharedWorker: Worker, Blob: BlobCtor, URL: Url } = host;
  if (
    typeof Worker !== "function" ||
    typeof BlobCtor !== "function" ||
    typeof Url?.createObjectURL !== "function"
  ) {
    return undefined;
  }
  return () => {
    const url = Url.createObjectURL(
      new BlobCtor([REVOKE_OWN_URL, source], { type: "text/javascript" }),
    );
    return new Worker(url, { name: TELEMETRY_WORKER_NAME });
  };
}
