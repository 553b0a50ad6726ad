/**
 * Workflow events (docs/product.md §3): a named step of a workflow instance with string key/value
 * data, and the page-side dedupe that drops a repeat of the same step with the same data
 * within 200 ms (docs/product.md §9).
 */
import type { WireWorkflowEvent } from "@chat-widget/protocol";
import { assertExist } from "./errors.js";
import { dimensionValue } from "./metric.js";

export const WORKFLOW_DEDUPE_INTERVAL_MS = 200;

export interface WorkflowEventInit {
  workflowType: string;
  event: string;
  instanceId?: string;
  userId?: string;
  organizationId?: string;
  accountId?: string;
  appName?: string;
  /** Values are stringified like dimension values. */
  data?: Record<string, unknown>;
  /** Epoch milliseconds (from the injected clock). */
  timestamp: number;
}

export function createWorkflowEvent(init: WorkflowEventInit): WireWorkflowEvent {
  assertExist(init, "workflowEvent");
  assertExist(init.workflowType, "workflowType");
  assertExist(init.event, "event");
  const event: WireWorkflowEvent = {
    timestamp: init.timestamp,
    workflowType: init.workflowType,
    event: init.event,
    data: Object.entries(init.data ?? {}).map(([key, value]) => ({
      key,
      value: dimensionValue(value),
    })),
  };
  for (const key of ["instanceId", "userId", "organizationId", "accountId", "appName"] as const) {
    if (init[key] !== undefined) event[key] = init[key];
  }
  return event;
}

/** Remembers the last sent event per workflow step to drop repeats inside the interval. */
export class WorkflowEventDeduper {
  private readonly last = new Map<string, WireWorkflowEvent>();

  /** True when `event` repeats the last sent one (same data) no more than `intervalMs` later. */
  isDuplicate(event: WireWorkflowEvent, intervalMs = WORKFLOW_DEDUPE_INTERVAL_MS): boolean {
    const past = this.last.get(keyOf(event));
    return (
      past !== undefined &&
      JSON.stringify(past.data) === JSON.stringify(event.data) &&
      event.timestamp - past.timestamp <= intervalMs
    );
  }

  remember(event: WireWorkflowEvent): void {
    this.last.set(keyOf(event), event);
  }
}

function keyOf(e: WireWorkflowEvent): string {
  return JSON.stringify([e.workflowType, e.instanceId ?? "", e.event]);
}
