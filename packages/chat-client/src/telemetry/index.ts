export { createTelemetry, DEFAULT_WIDGET_TYPE } from "./telemetry-client.js";
export type {
  Telemetry,
  TelemetryOptions,
  MetricInput,
  WorkflowEventInput,
  DimensionMap,
} from "./telemetry-client.js";
export { attachSessionMetrics, SessionMetricName } from "./session-metrics.js";
export type { SessionMetricSource } from "./session-metrics.js";
export { Metric, dimensionValue, isMetricUnit } from "./metric.js";
export type { MetricInit, DedupeOptions } from "./metric.js";
export {
  createWorkflowEvent,
  WorkflowEventDeduper,
  WORKFLOW_DEDUPE_INTERVAL_MS,
} from "./workflow-event.js";
export type { WorkflowEventInit } from "./workflow-event.js";
export {
  TelemetryError,
  NullOrUndefinedException,
  AssertTrueException,
  ExceedDimensionLimitException,
  InitializationException,
} from "./errors.js";
export type { TelemetryErrorCode } from "./errors.js";
export { DEFAULT_BATCH_SETTINGS } from "./batcher.js";
export type { BatchSettings } from "./batcher.js";
export { TelemetryLogText } from "./publisher.js";
export { AGENT_METRIC_MAX_RETRIES, AGENT_METRIC_RETRY_INTERVAL_MS } from "./agent-metric-retry.js";
export {
  TELEMETRY_INIT_TIMEOUT_MS,
  TELEMETRY_WORKER_NAME,
  INIT_FATAL_MESSAGE,
} from "./worker-connection.js";
export type { SharedWorkerFactory, SharedWorkerLike, TelemetryMode } from "./worker-connection.js";
export { createTelemetryHost } from "./worker-host.js";
export { blobSharedWorkerFactory } from "./blob-shared-worker.js";
export type { BlobWorkerHost } from "./blob-shared-worker.js";
export { TELEMETRY_WORKER_SOURCE } from "./worker-source.generated.js";
export type { TelemetryHost, TelemetryHostEnv } from "./worker-host.js";
export { TelemetryMessageType } from "./worker-protocol.js";
export type {
  PageToWorkerMessage,
  WorkerToPageMessage,
  PortLike,
  EventHandlerLike,
  TelemetryWorkerConfig,
  SettableConfigKey,
} from "./worker-protocol.js";
