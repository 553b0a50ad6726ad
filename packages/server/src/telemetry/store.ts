/**
 * Telemetry: each row stored as received, and summed into its series in the same statement;
 * /metrics reads the series. Rows and quiet series expire (sweepTelemetry).
 */
import { isoAt } from "../clock.js";
import type { Db } from "../store/db.js";
import { isName, MAX_SERIES, parseDimensions, seriesProblem } from "./limits.js";

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

/**
 * The rows' count and sum per series, one entry per series: a statement may not update the same
 * series row twice.
 */
function seriesTotals<T>(
  rows: T[],
  keyOf: (row: T) => string[],
  valueOf: (row: T) => number = () => 0,
): { key: string[]; count: number; sum: number }[] {
  const bySeries = new Map<string, { key: string[]; count: number; sum: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    const totals = bySeries.get(id) ?? { key, count: 0, sum: 0 };
    totals.count += 1;
    totals.sum += valueOf(row);
    bySeries.set(id, totals);
  }
  return [...bySeries.values()];
}

export async function insertMetrics(db: Db, rows: MetricRow[], receivedMs: number): Promise<void> {
  const received = isoAt(receivedMs);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [received];
    const values = chunk.map((r) => {
      params.push(
        r.namespace,
        r.metricName,
        r.unit,
        r.value,
        isoAt(r.timeMs),
        JSON.stringify(r.dimensions),
      );
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, $1)`;
    });
    const series = seriesTotals(chunk, metricSeriesKey, (r) => r.value).map((s) => {
      params.push(...s.key, s.count, s.sum);
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}::bigint, $${n}::double precision, $1::timestamptz)`;
    });
    await db.query(
      `WITH received AS (
         INSERT INTO telemetry_metrics (namespace, metric_name, unit, value, metric_time, dimensions, received_at)
         VALUES ${values.join(", ")}
       )
       INSERT INTO telemetry_metric_series AS s
         (namespace, metric_name, unit, dimensions, count, sum, last_received_at)
       VALUES ${series.join(", ")}
       ON CONFLICT (namespace, metric_name, unit, dimensions) DO UPDATE SET
         count = s.count + EXCLUDED.count,
         sum = s.sum + EXCLUDED.sum,
         last_received_at = GREATEST(s.last_received_at, EXCLUDED.last_received_at)`,
      params,
    );
  }
}

export async function insertWorkflowEvents(
  db: Db,
  rows: WorkflowEventRow[],
  receivedMs: number,
): Promise<void> {
  const received = isoAt(receivedMs);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [received];
    const values = chunk.map((r) => {
      params.push(
        r.workflowType,
        r.event,
        r.instanceId ?? null,
        r.appName ?? null,
        isoAt(r.timeMs),
        JSON.stringify(r.data),
      );
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, $1)`;
    });
    const series = seriesTotals(chunk, workflowSeriesKey).map((s) => {
      params.push(...s.key, s.count);
      const n = params.length;
      return `($${n - 2}, $${n - 1}, $${n}::bigint, $1::timestamptz)`;
    });
    await db.query(
      `WITH received AS (
         INSERT INTO telemetry_workflow_events (workflow_type, event, instance_id, app_name, event_time, data, received_at)
         VALUES ${values.join(", ")}
       )
       INSERT INTO telemetry_workflow_series AS s (workflow_type, event, count, last_received_at)
       VALUES ${series.join(", ")}
       ON CONFLICT (workflow_type, event) DO UPDATE SET
         count = s.count + EXCLUDED.count,
         last_received_at = GREATEST(s.last_received_at, EXCLUDED.last_received_at)`,
      params,
    );
  }
}

/**
 * Count and sum per series, at most MAX_SERIES of them (the first by name, should the store hold
 * more than ingest lets in). A series ingest could not have written (written to the store
 * directly: a sum that is not finite, malformed or oversized dimensions) is left out rather than
 * failing the whole read.
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
    `SELECT namespace, metric_name, unit, dimensions, count, sum
     FROM telemetry_metric_series
     ORDER BY namespace, metric_name, unit, dimensions
     LIMIT $1`,
    [MAX_SERIES],
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
    if (!Number.isFinite(s.sum) || !(s.count > 0)) continue;
    if (seriesProblem(s) === undefined) series.push(s);
  }
  return series;
}

/** Events per workflow series, at most MAX_SERIES; oversized names (not from ingest) skipped. */
export async function workflowEventCounts(
  db: Db,
): Promise<{ workflowType: string; event: string; count: number }[]> {
  const rows = await db.query<{ workflow_type: string; event: string; count: string | number }>(
    `SELECT workflow_type, event, count FROM telemetry_workflow_series
     ORDER BY workflow_type, event LIMIT $1`,
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

/**
 * Forget what telemetry received before `cutoffMs`: its rows, and every series that received
 * nothing since (it leaves /metrics, and no longer counts against MAX_SERIES). A series still
 * receiving keeps its count and sum, so its counters never go back.
 */
export async function sweepTelemetry(db: Db, cutoffMs: number): Promise<void> {
  const cutoff = isoAt(cutoffMs);
  await db.query("DELETE FROM telemetry_metrics WHERE received_at < $1", [cutoff]);
  await db.query("DELETE FROM telemetry_workflow_events WHERE received_at < $1", [cutoff]);
  await db.query("DELETE FROM telemetry_metric_series WHERE last_received_at < $1", [cutoff]);
  await db.query("DELETE FROM telemetry_workflow_series WHERE last_received_at < $1", [cutoff]);
}
