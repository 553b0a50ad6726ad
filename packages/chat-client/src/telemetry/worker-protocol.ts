/**
 * Messages between a page and the telemetry worker (docs/protocol.md §8.2). Each page message is
 * `{type, portId, message, endpoint?, headers?}`; the worker answers CONFIG with the page's
 * port id (from 1) and sends LOG messages for what it has to report.
 */
import type { AuthParams, WireMetric, WireWorkflowEvent } from "@chat-widget/protocol";
import type { BatchSettings } from "./batcher.js";
import type { LogLevel } from "./publisher.js";

export const TelemetryMessageType = {
  Log: "LOG",
  Metric: "METRIC",
  Config: "CONFIG",
  WorkflowEvent: "WORKFLOW_EVENT",
  Custom: "CUSTOM",
  Close: "CLOSE",
  SetAuth: "SET_AUTH",
  SetConfig: "SET_CONFIG",
} as const;

/** The CONFIG message body: empty values are ignored by the worker. */
export interface TelemetryWorkerConfig {
  namespace: string;
  /** The telemetry endpoint; `/auth`, `/put-metrics`, `/put-workflow-events` are appended. */
  endpointUrl: string | null;
  userId?: string;
  accountId?: string;
  organizationId?: string;
  batchSettings?: Partial<BatchSettings> | null;
  dryRunMode?: boolean;
}

/** Settings SET_CONFIG may change. */
export type SettableConfigKey =
  "userId" | "accountId" | "organizationId" | "endpointUrl" | "dryRunMode";

type PortId = number | null;

export type PageToWorkerMessage =
  | { type: "CONFIG"; portId: PortId; message: TelemetryWorkerConfig }
  | { type: "METRIC"; portId: PortId; message: WireMetric }
  | { type: "WORKFLOW_EVENT"; portId: PortId; message: WireWorkflowEvent }
  | {
      type: "CUSTOM";
      portId: PortId;
      message: unknown;
      endpoint: string;
      headers?: Record<string, string>;
    }
  | { type: "SET_AUTH"; portId: PortId; message: AuthParams }
  | { type: "SET_CONFIG"; portId: PortId; message: { key: SettableConfigKey; value: unknown } }
  | { type: "CLOSE"; portId: PortId };

export type WorkerToPageMessage =
  | { type: "CONFIG"; portId: number }
  | { type: "LOG"; level: LogLevel; message: string; detail?: unknown };

/**
 * An event handler compared bivariantly, so the DOM's `(ev: MessageEvent) => any` and
 * `(ev: ErrorEvent) => any` handlers fit without casts.
 */
export type EventHandlerLike<E> = { bivarianceHack(event: E): void }["bivarianceHack"];

/** The part of a MessagePort (or a SharedWorker's port) the telemetry code uses. */
export interface PortLike {
  postMessage(message: unknown): void;
  onmessage: EventHandlerLike<{ data: unknown }> | null;
  start?(): void;
  close?(): void;
}

export function isPageToWorkerMessage(data: unknown): data is PageToWorkerMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return (
    typeof type === "string" &&
    type !== TelemetryMessageType.Log &&
    (Object.values(TelemetryMessageType) as string[]).includes(type)
  );
}

export function isWorkerToPageMessage(data: unknown): data is WorkerToPageMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === TelemetryMessageType.Config || type === TelemetryMessageType.Log;
}
