/** Telemetry rows: stored as received, summarised per series for /metrics. */
import { isoAt } from "../clock.js";
import type { Db } from "../store/db.js";
import { isName, MAX_METRIC_VALUE, MAX_SERIES, parseDimensions, seriesProblem } from "./limits.js";

export interface MetricRow {
  namespace: string;
  metricName: string;
  unit: string;
  value: number;
  timeMs: number;
  /** [name, value] pairs sorted by name. */
  dimensions: [string, string][];
}

export interface WorkflowEventRow {
  workflowType: string;
  event: string;
  instanceId?: string;
  appName?: string;
  timeMs: number;
  data: { key: string; value: string }[];
}

export interface MetricSeries {
  namespace: string;
  metricName: string;
  unit: string;
  dimensions: [string, string][];
  count: number;
  sum: number;
}

/** Rows per INSERT statement (7 parameters each). */
const CHUNK = 500;

/** The stored columns that make a metric's series: namespace, metric_name, unit, dimensions. */
export const metricSeriesKey = (r: MetricRow): string[] => [
  r.namespace,
  r.metricName,
  r.unit,
  JSON.stringify(r.dimensions),
];

/** The stored columns that make a workflow event's series: workflow_type, event. */
export const workflowSeriesKey = (r: WorkflowEventRow): string[] => [r.workflowType, r.event];

export async function insertMetrics(db: Db, rows: MetricRow[], receivedMs: number): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    const values = chunk.map((r) => {
      params.push(
        r.namespace,
        r.metricName,
        r.unit,
        r.value,
        isoAt(r.timeMs),
        JSON.stringify(r.dimensions),
        isoAt(receivedMs),
      );
      const n = params.length;
      return `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    await db.query(
      `INSERT INTO telemetry_metrics (namespace, metric_name, unit, value, metric_time, dimensions, received_at)
       VALUES ${values.join(", ")}`,
      params,
    );
  }
}

export async function insertWorkflowEvents(
  db: Db,
  rows: WorkflowEventRow[],
  receivedMs: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const params: unknown[] = [];
    const values = rows.slice(i, i + CHUNK).map((r) => {
      params.push(
        r.workflowType,
        r.event,
        r.instanceId ?? null,
        r.appName ?? null,
        isoAt(r.timeMs),
        JSON.stringify(r.data),
        isoAt(receivedMs),
      );
      const n = params.length;
      return `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    await db.query(
      `INSERT INTO telemetry_workflow_events (workflow_type, event, instance_id, app_name, event_time, data, received_at)
       VALUES ${values.join(", ")}`,
      params,
    );
  }
}

/**
 * Count and sum per series, at most MAX_SERIES of them (the first by name, should the store hold
 * more than ingest lets in). Rows that ingest would refuse are left out rather than failing the
 * whole read: values beyond ±MAX_METRIC_VALUE (NaN, ±Infinity, 1e308: summing two of those
 * overflows in SQL) in the query, malformed or oversized series here.
 */
export async function metricSeries(db: Db): Promise<MetricSeries[]> {
  const rows = await db.query<{
    namespace: string;
    metric_name: string;
    unit: string;
    dimensions: string;
    count: string | number;
    sum: string | number;
  }>(
    `SELECT namespace, metric_name, unit, dimensions, count(*) AS count, sum(value) AS sum
     FROM telemetry_metrics
     WHERE value BETWEEN $1::double precision AND $2::double precision
     GROUP BY namespace, metric_name, unit, dimensions
     ORDER BY namespace, metric_name, unit, dimensions
     LIMIT $3`,
    [-MAX_METRIC_VALUE, MAX_METRIC_VALUE, MAX_SERIES],
  );
  const series: MetricSeries[] = [];
  for (const r of rows) {
    const dimensions = parseDimensions(r.dimensions);
    if (!dimensions) continue;
    const s = {
      namespace: r.namespace,
      metricName: r.metric_name,
      unit: r.unit,
      dimensions,
      count: Number(r.count),
      sum: Number(r.sum),
    };
    if (seriesProblem(s) === undefined) series.push(s);
  }
  return series;
}

/** Events per workflow series, at most MAX_SERIES; oversized names (not from ingest) skipped. */
export async function workflowEventCounts(
  db: Db,
): Promise<{ workflowType: string; event: string; count: number }[]> {
  const rows = await db.query<{ workflow_type: string; event: string; count: string | number }>(
    `SELECT workflow_type, event, count(*) AS count FROM telemetry_workflow_events
     GROUP BY workflow_type, event ORDER BY workflow_type, event LIMIT $1`,
    [MAX_SERIES],
  );
  return rows
    .filter((r) => isName(r.workflow_type) && isName(r.event))
    .map((r) => ({
      workflowType: r.workflow_type,
      event: r.event,
      count: Number(r.count),
    }));
}
