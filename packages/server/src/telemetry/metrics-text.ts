/** What GET /metrics shows: the stored telemetry as Prometheus families. */
import { labelName, uniqueLabels, type Family } from "./prometheus.js";
import type { MetricSeries } from "./store.js";

export const METRIC_FAMILY = "chat_widget_metric";
export const WORKFLOW_FAMILY = "chat_widget_workflow_events_total";

export function telemetryFamilies(
  series: MetricSeries[],
  workflowCounts: { workflowType: string; event: string; count: number }[],
): Family[] {
  const metric: Family = {
    name: METRIC_FAMILY,
    help: "Client metrics received at /telemetry/put-metrics: how many (count) and the total of their values (sum), per metric name, namespace, unit and dimensions (labels dim_<name>).",
    type: "summary",
    samples: [],
  };
  // Distinct stored series can share one label set (dimension names `a-b` and `a_b` both become
  // `dim_a_b`); a scraper refuses a repeated series, so they are summed into one.
  const merged = new Map<string, { labels: [string, string][]; count: number; sum: number }>();
  for (const s of series) {
    if (!Number.isFinite(s.count) || !Number.isFinite(s.sum)) continue;
    const labels = uniqueLabels([
      ["namespace", s.namespace],
      ["metric_name", s.metricName],
      ["unit", s.unit],
      ...s.dimensions.map(([k, v]): [string, string] => [labelName(`dim_${k}`), v]),
    ]);
    const key = JSON.stringify(labels);
    const seen = merged.get(key);
    if (!seen) merged.set(key, { labels, count: s.count, sum: s.sum });
    else if (Number.isFinite(seen.sum + s.sum)) {
      seen.count += s.count;
      seen.sum += s.sum;
    }
  }
  for (const { labels, count, sum } of merged.values()) {
    metric.samples.push({ name: `${METRIC_FAMILY}_count`, labels, value: count });
    metric.samples.push({ name: `${METRIC_FAMILY}_sum`, labels, value: sum });
  }
  const workflow: Family = {
    name: WORKFLOW_FAMILY,
    help: "Workflow events received at /telemetry/put-workflow-events, per workflow type and event.",
    type: "counter",
    samples: workflowCounts.map((w) => ({
      name: WORKFLOW_FAMILY,
      labels: [
        ["workflow_type", w.workflowType],
        ["event", w.event],
      ],
      value: w.count,
    })),
  };
  return [metric, workflow];
}
