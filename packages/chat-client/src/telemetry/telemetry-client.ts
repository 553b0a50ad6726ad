/**
 * The page-side telemetry API (docs/product.md §7): metrics in namespace `chat-widget` with dimension
 * `WidgetType`, agent counts, workflow events, custom posts and auth, handed to the
 * telemetry worker. Every method swallows and logs its own failures: telemetry never
 * breaks a chat. `enabled: false` gives an object that does nothing.
 */
import { WIDGET_METRIC_NAMESPACE, WIDGET_TYPE_DIMENSION } from "@chat-widget/protocol";
import type { AuthParams, MetricUnit } from "@chat-widget/protocol";
import { noopLogger, resolveEnv } from "../env.js";
import type { ClientEnv, Logger } from "../env.js";
import { AgentMetricRetry } from "./agent-metric-retry.js";
import { blobSharedWorkerFactory } from "./blob-shared-worker.js";
import type { BatchSettings } from "./batcher.js";
import { Metric } from "./metric.js";
import type { DedupeOptions } from "./metric.js";
import { WorkerConnection } from "./worker-connection.js";
import type { SharedWorkerFactory, TelemetryMode } from "./worker-connection.js";
import {
  WORKFLOW_DEDUPE_INTERVAL_MS,
  WorkflowEventDeduper,
  createWorkflowEvent,
} from "./workflow-event.js";
import type { SettableConfigKey } from "./worker-protocol.js";

export const DEFAULT_WIDGET_TYPE = "CustomChatWidget";

export interface TelemetryOptions {
  /**
   * The telemetry endpoint (the contact centre's is `<origin>/telemetry`); `/auth`,
   * `/put-metrics` and `/put-workflow-events` are appended. Without one nothing is sent.
   */
  endpoint?: string | null;
  /** `false` turns telemetry off: nothing is started or sent. Default true. */
  enabled?: boolean;
  env?: Partial<ClientEnv>;
  logger?: Logger;
  /** Value of the `WidgetType` dimension. Default "CustomChatWidget". */
  widgetType?: string;
  /** Default "chat-widget". */
  namespace?: string;
  /** Run telemetry in a SharedWorker where the browser has one. Default true. */
  useSharedWorker?: boolean;
  /** Creates the SharedWorker; default: the bundled worker from a Blob URL where there is a SharedWorker. */
  sharedWorker?: SharedWorkerFactory;
  batchSettings?: Partial<BatchSettings>;
  /** Batch as usual but send nothing. */
  dryRunMode?: boolean;
  userId?: string;
  accountId?: string;
  organizationId?: string;
}

export type DimensionMap = Record<string, unknown>;

export interface MetricInput {
  metricName: string;
  unit: MetricUnit;
  value: number;
  /** Added after `WidgetType`. */
  dimensions?: DimensionMap;
  optionalDimensions?: DimensionMap;
  dedupeOptions?: DedupeOptions;
  namespace?: string;
}

export interface WorkflowEventInput {
  workflowType: string;
  event: string;
  instanceId?: string;
  data?: Record<string, unknown>;
  /** Drop a repeat of this step with the same data within 200 ms (or this many ms). */
  dedupe?: boolean | number;
}

export interface Telemetry {
  readonly mode: TelemetryMode | "disabled";
  /** The worker answered CONFIG. */
  readonly ready: boolean;
  /** A Metric as built, or an input that gets the namespace, timestamp and `WidgetType`. */
  addMetric(metric: Metric | MetricInput): void;
  /** A Count metric of value 1 with `WidgetType` (and any extra dimensions). */
  addCountMetric(metricName: string, dimensions?: DimensionMap): void;
  /** A Milliseconds metric with `WidgetType`, `Metric=Latency` (and any extra dimensions). */
  addLatencyMetric(metricName: string, milliseconds: number, dimensions?: DimensionMap): void;
  /** A Count metric without dimensions, retried every 3 s up to 5 times until ready. */
  addAgentCountMetric(metricName: string, count: number): void;
  /** False when the event was dropped as a duplicate or invalid. */
  addWorkflowEvent(event: WorkflowEventInput): boolean;
  /** POST `data` to any endpoint with these headers. */
  putCustom(endpoint: string, headers: Record<string, string> | undefined, data: unknown): void;
  /** Exchange these auth params for a jwtToken at `/auth`; later batches carry it. */
  setAuth(authParams: AuthParams): void;
  setConfig(key: SettableConfigKey, value: string | boolean): void;
  /** This page is done (call on unload); the worker flushes when its last page closes. */
  close(): void;
}

export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  if (options.enabled === false) return disabledTelemetry();
  const env = resolveEnv(options.env);
  const logger = options.logger ?? noopLogger;
  const namespace = options.namespace ?? WIDGET_METRIC_NAMESPACE;
  const widgetType = options.widgetType ?? DEFAULT_WIDGET_TYPE;
  const identity = {
    userId: options.userId,
    accountId: options.accountId,
    organizationId: options.organizationId,
  };

  const guard = (what: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      try {
        logger.error(`Failed to ${what}`, error);
      } catch {
        // A throwing logger must not break a chat.
      }
    }
  };

  let connection: WorkerConnection | null = null;
  guard("initialize telemetry", () => {
    connection = new WorkerConnection({
      env,
      logger,
      sharedWorker:
        options.useSharedWorker === false
          ? undefined
          : (options.sharedWorker ?? blobSharedWorkerFactory()),
      config: {
        namespace,
        endpointUrl: options.endpoint ?? null,
        batchSettings: options.batchSettings ?? null,
        dryRunMode: options.dryRunMode ?? false,
        ...identity,
      },
    });
  });
  if (!connection) return disabledTelemetry();
  const link: WorkerConnection = connection;

  const sendMetric = (metric: Metric): void =>
    link.post({ type: "METRIC", message: metric.toWire() });
  const build = (input: MetricInput): Metric =>
    new Metric({
      metricName: input.metricName,
      unit: input.unit,
      value: input.value,
      namespace: input.namespace ?? namespace,
      timestamp: env.now(),
      dimensions: [
        { name: WIDGET_TYPE_DIMENSION, value: widgetType },
        ...toDimensions(input.dimensions),
      ],
      optionalDimensions: toDimensions(input.optionalDimensions),
      dedupeOptions: input.dedupeOptions,
    });

  const agentRetry = new AgentMetricRetry({
    timers: env,
    isReady: () => link.ready,
    publish: ({ metricName, count }) =>
      guard("add agent metric", () =>
        sendMetric(
          new Metric({ metricName, unit: "Count", value: count, namespace, timestamp: env.now() }),
        ),
      ),
    onGiveUp: (dropped) => logger.warn("Telemetry not ready: dropped agent metrics", dropped),
  });
  const deduper = new WorkflowEventDeduper();

  return {
    get mode() {
      return link.mode;
    },
    get ready() {
      return link.ready;
    },
    addMetric: (metric) =>
      guard("add metric", () => sendMetric(metric instanceof Metric ? metric : build(metric))),
    addCountMetric: (metricName, dimensions) =>
      guard("add count metric", () =>
        sendMetric(build({ metricName, unit: "Count", value: 1, dimensions })),
      ),
    addLatencyMetric: (metricName, milliseconds, dimensions) =>
      guard("add latency metric", () =>
        sendMetric(
          build({
            metricName,
            unit: "Milliseconds",
            value: milliseconds,
            dimensions: { Metric: "Latency", ...dimensions },
          }),
        ),
      ),
    addAgentCountMetric: (metricName, count) =>
      guard("add agent metric", () => {
        if (metricName === null || metricName === undefined)
          throw new TypeError("metricName is required");
        agentRetry.add({ metricName, count });
      }),
    addWorkflowEvent(input) {
      let sent = false;
      guard("add workflow event", () => {
        const event = createWorkflowEvent({
          ...identity,
          workflowType: input.workflowType,
          event: input.event,
          instanceId: input.instanceId,
          appName: namespace,
          data: { [WIDGET_TYPE_DIMENSION]: widgetType, ...input.data },
          timestamp: env.now(),
        });
        if (input.dedupe) {
          const interval =
            typeof input.dedupe === "number" ? input.dedupe : WORKFLOW_DEDUPE_INTERVAL_MS;
          if (deduper.isDuplicate(event, interval)) return;
        }
        deduper.remember(event);
        link.post({ type: "WORKFLOW_EVENT", message: event });
        sent = true;
      });
      return sent;
    },
    putCustom: (endpoint, headers, data) =>
      guard("put custom data", () =>
        link.post({ type: "CUSTOM", message: data, endpoint, headers }),
      ),
    setAuth: (authParams) =>
      guard("set auth", () => link.post({ type: "SET_AUTH", message: authParams })),
    setConfig: (key, value) =>
      guard("set config", () => link.post({ type: "SET_CONFIG", message: { key, value } })),
    close: () =>
      guard("close telemetry", () => {
        agentRetry.cancel();
        link.close();
      }),
  };
}

function toDimensions(map: DimensionMap | undefined): { name: string; value: unknown }[] {
  return Object.entries(map ?? {}).map(([name, value]) => ({ name, value }));
}

function disabledTelemetry(): Telemetry {
  const nothing = () => {};
  return {
    mode: "disabled",
    ready: false,
    addMetric: nothing,
    addCountMetric: nothing,
    addLatencyMetric: nothing,
    addAgentCountMetric: nothing,
    addWorkflowEvent: () => false,
    putCustom: nothing,
    setAuth: nothing,
    setConfig: nothing,
    close: nothing,
  };
}
