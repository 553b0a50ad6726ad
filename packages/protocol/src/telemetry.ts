/** Client-side telemetry ("CSM") wire shapes (docs/protocol.md §8, docs/product.md §7). */

/**
 * The contact centre's telemetry routes: its telemetry endpoint is `<origin>/telemetry`, and a
 * client appends `/auth`, `/put-metrics`, `/put-workflow-events` to the endpoint it is given.
 */
export const TelemetryPath = {
  Auth: "/telemetry/auth",
  PutMetrics: "/telemetry/put-metrics",
  PutWorkflowEvents: "/telemetry/put-workflow-events",
} as const;

export const METRIC_UNITS = ["Count", "Seconds", "Milliseconds", "Microseconds"] as const;
export type MetricUnit = (typeof METRIC_UNITS)[number];
export const MAX_METRIC_DIMENSIONS = 10;
export const WIDGET_METRIC_NAMESPACE = "chat-widget";
export const WIDGET_TYPE_DIMENSION = "WidgetType";

export interface Dimension {
  name: string;
  value: string;
}

export interface WireMetric {
  metricName: string;
  unit: MetricUnit;
  value: number;
  timestamp: string;
  dimensions: Dimension[];
  optionalDimensions: Dimension[];
  namespace: string;
  dedupeOptions?: { dedupeIntervalMs: number; context?: string };
}

export type AuthParams = Record<string, unknown> & { jwtToken?: string };

export interface PutMetricsRequest {
  metricNamespace: string;
  metricList: WireMetric[];
  authParams?: AuthParams;
  accountId?: string;
  organizationId?: string;
  agentResourceId?: string;
}
export interface PutMetricsResponse {
  unsetToken?: boolean;
}

export interface WireWorkflowEvent {
  timestamp: number;
  workflowType: string;
  instanceId?: string;
  userId?: string;
  organizationId?: string;
  accountId?: string;
  event: string;
  appName?: string;
  data: { key: string; value: string }[];
}
export interface PutWorkflowEventsRequest {
  workflowEventList: WireWorkflowEvent[];
  authParams?: AuthParams;
}
export interface PutWorkflowEventsResponse {
  workflowEventList?: WireWorkflowEvent[];
  unsetToken?: boolean;
}

export interface AuthRequest {
  authParams: AuthParams;
}
export interface AuthResponse {
  jwtToken: string;
}
