/**
 * The telemetry worker: the same code runs inside a SharedWorker (one per browser, every
 * tab's page connects a port) or in the page (connected through a loopback port). It keeps
 * the configuration, batches metrics and workflow events and publishes them over HTTP; what
 * it has to report goes to every connected page as LOG messages.
 */
import type { ClientEnv } from "../env.js";
import { Batcher } from "./batcher.js";
import { NullOrUndefinedException } from "./errors.js";
import { Publisher } from "./publisher.js";
import type { LogLevel } from "./publisher.js";
import { TelemetryMessageType as T, isPageToWorkerMessage } from "./worker-protocol.js";
import type {
  PageToWorkerMessage,
  PortLike,
  TelemetryWorkerConfig,
  WorkerToPageMessage,
} from "./worker-protocol.js";

export type TelemetryHostEnv = Pick<ClientEnv, "setInterval" | "clearInterval" | "fetch">;

export interface TelemetryHost {
  /** Serve one page's port (a SharedWorker's `connect` event port, or a loopback port). */
  connect(port: PortLike): void;
  /** Ports that sent CONFIG and have not closed. */
  readonly portCount: number;
  /** Flush what is pending and stop the timers. */
  dispose(): void;
}

const SETTABLE_KEYS = new Set<string>([
  "userId",
  "accountId",
  "organizationId",
  "endpointUrl",
  "dryRunMode",
]);

export function createTelemetryHost(env: TelemetryHostEnv): TelemetryHost {
  const ports = new Map<number, PortLike>();
  let nextPortId = 1;

  const broadcast = (message: WorkerToPageMessage): void => {
    for (const port of ports.values()) safePost(port, message);
  };
  const log = (level: LogLevel, message: string, detail?: unknown): void =>
    broadcast({ type: T.Log, level, message, detail: cloneableDetail(detail) });

  const publisher = new Publisher((input, init) => env.fetch(input, init), log);
  const batcher = new Batcher(env, {
    putMetrics: (namespace, metrics) => void publisher.putMetrics(namespace, metrics),
    putWorkflowEvents: (events) => void publisher.putWorkflowEvents(events),
  });

  const configure = (port: PortLike, config: TelemetryWorkerConfig): void => {
    const portId = nextPortId++;
    ports.set(portId, port);
    for (const key of [
      "endpointUrl",
      "userId",
      "accountId",
      "organizationId",
      "dryRunMode",
    ] as const) {
      const value = config?.[key];
      if (value !== undefined && value !== null && value !== "") {
        (publisher.config as Record<string, unknown>)[key] = value;
      }
    }
    batcher.configure(config?.batchSettings ?? undefined);
    batcher.start();
    safePost(port, { type: T.Config, portId });
  };

  const handle = (data: PageToWorkerMessage, port: PortLike): void => {
    if (typeof data.portId === "number" && data.type !== T.Close && !ports.has(data.portId)) {
      // A page whose unload was cancelled posted CLOSE earlier but lives on: take it back.
      ports.set(data.portId, port);
      nextPortId = Math.max(nextPortId, data.portId + 1);
    }
    switch (data.type) {
      case T.Config:
        configure(port, data.message);
        break;
      case T.Metric:
        if (!data.message?.namespace) throw new NullOrUndefinedException("message[namespace]");
        batcher.addMetric(data.message);
        break;
      case T.WorkflowEvent:
        batcher.addWorkflowEvent(data.message);
        break;
      case T.Custom:
        void publisher.putCustom(data.endpoint, data.headers, data.message);
        break;
      case T.SetAuth:
        void publisher.setAuth(data.message ?? {});
        break;
      case T.SetConfig:
        if (SETTABLE_KEYS.has(data.message?.key)) {
          (publisher.config as Record<string, unknown>)[data.message.key] = data.message.value;
        }
        break;
      case T.Close:
        if (typeof data.portId === "number") ports.delete(data.portId);
        if (ports.size === 0) {
          batcher.flush();
          batcher.stop();
        }
        break;
    }
  };

  return {
    connect(port) {
      port.onmessage = (event) => {
        if (!isPageToWorkerMessage(event.data)) return;
        try {
          handle(event.data, port);
        } catch (error) {
          log("error", "Telemetry worker could not handle a message", error);
        }
      };
      port.start?.();
    },
    get portCount() {
      return ports.size;
    },
    dispose() {
      batcher.flush();
      batcher.stop();
      ports.clear();
    },
  };
}

function safePost(port: PortLike, message: WorkerToPageMessage): void {
  try {
    port.postMessage(message);
  } catch {
    // A closed or uncloneable port must not stop the worker.
  }
}

/** Errors and responses become plain data so they survive structured cloning. */
function cloneableDetail(detail: unknown): unknown {
  if (detail === undefined) return undefined;
  if (detail instanceof Error) return `${detail.name}: ${detail.message}`;
  try {
    return JSON.parse(JSON.stringify(detail)) as unknown;
  } catch {
    // Not JSON (a cycle, a BigInt): its string form is the best the log can have.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return String(detail);
  }
}
