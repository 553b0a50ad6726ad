/** Telemetry rows: stored as received, summarised per series for /metrics. */
import { isoAt } from "../clock.js";
import type { Db } from "../store/db.js";

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
  for (const r of rows) {
    await db.query(
      `INSERT INTO telemetry_workflow_events (workflow_type, event, instance_id, app_name, event_time, data, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        r.workflowType,
        r.event,
        r.instanceId ?? null,
        r.appName ?? null,
        isoAt(r.timeMs),
        JSON.stringify(r.data),
        isoAt(receivedMs),
      ],
    );
  }
}

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
     FROM telemetry_metrics GROUP BY namespace, metric_name, unit, dimensions
     ORDER BY namespace, metric_name, unit, dimensions`,
  );
  return rows.map((r) => ({
    namespace: r.namespace,
    metricName: r.metric_name,
    unit: r.unit,
    dimensions: JSON.parse(r.dimensions) as [string, string][],
    count: Number(r.count),
    sum: Number(r.sum),
  }));
}

export async function workflowEventCounts(
  db: Db,
): Promise<{ workflowType: string; event: string; count: number }[]> {
  const rows = await db.query<{ workflow_type: string; event: string; count: string | number }>(
    `SELECT workflow_type, event, count(*) AS count FROM telemetry_workflow_events
     GROUP BY workflow_type, event ORDER BY workflow_type, event`,
  );
  return rows.map((r) => ({
    workflowType: r.workflow_type,
    event: r.event,
    count: Number(r.count),
  }));
}
