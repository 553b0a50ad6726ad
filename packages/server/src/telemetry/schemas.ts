/** JSON schemas of the telemetry bodies (docs/protocol.md §8.4; docs/product.md §5 "Metrics"). */
import { MAX_METRIC_DIMENSIONS, METRIC_UNITS } from "@chat-widget/protocol";
import {
  MAX_DIMENSION_NAME_LENGTH,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_NAME_LENGTH,
} from "./limits.js";

/** Lengths here refuse early with a precise path; metric-rows.ts checks values and totals. */
const name = { type: "string", minLength: 1, maxLength: MAX_NAME_LENGTH } as const;

const dimension = {
  type: "object",
  required: ["name", "value"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: MAX_DIMENSION_NAME_LENGTH },
    value: { type: "string", maxLength: MAX_DIMENSION_VALUE_LENGTH },
  },
} as const;

const dimensions = { type: "array", maxItems: MAX_METRIC_DIMENSIONS, items: dimension } as const;

const authParams = { type: "object" } as const;

export const MAX_METRICS_PER_REQUEST = 1000;
export const MAX_WORKFLOW_EVENTS_PER_REQUEST = 1000;

export const authBody = {
  type: "object",
  required: ["authParams"],
  properties: { authParams },
} as const;

export const putMetricsBody = {
  type: "object",
  required: ["metricNamespace", "metricList"],
  properties: {
    metricNamespace: name,
    metricList: {
      type: "array",
      maxItems: MAX_METRICS_PER_REQUEST,
      items: {
        type: "object",
        required: ["metricName", "unit", "value"],
        properties: {
          metricName: name,
          unit: { type: "string", enum: [...METRIC_UNITS] },
          value: { type: "number" },
          timestamp: { type: "string", minLength: 1, maxLength: 64 },
          dimensions,
          optionalDimensions: dimensions,
          namespace: name,
          dedupeOptions: {
            type: "object",
            properties: { dedupeIntervalMs: { type: "number" }, context: { type: "string" } },
          },
        },
      },
    },
    authParams,
    accountId: { type: "string" },
    organizationId: { type: "string" },
    agentResourceId: { type: "string" },
  },
} as const;

export const putWorkflowEventsBody = {
  type: "object",
  required: ["workflowEventList"],
  properties: {
    workflowEventList: {
      type: "array",
      maxItems: MAX_WORKFLOW_EVENTS_PER_REQUEST,
      items: {
        type: "object",
        required: ["timestamp", "workflowType", "event"],
        properties: {
          timestamp: { type: "number" },
          workflowType: name,
          event: name,
          instanceId: { type: "string" },
          userId: { type: "string" },
          organizationId: { type: "string" },
          accountId: { type: "string" },
          appName: { type: "string" },
          data: {
            type: "array",
            maxItems: 100,
            items: {
              type: "object",
              required: ["key", "value"],
              properties: {
                key: { type: "string", maxLength: 255 },
                value: { type: "string", maxLength: 1024 },
              },
            },
          },
        },
      },
    },
    authParams,
  },
} as const;
