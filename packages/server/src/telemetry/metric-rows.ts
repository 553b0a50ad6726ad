/** A put-metrics body as the rows to store, or a ValidationException naming the first bad metric. */
import { MAX_METRIC_DIMENSIONS, type PutMetricsRequest } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import { metricValueProblem, seriesProblem } from "./limits.js";
import type { MetricRow } from "./store.js";

export function metricRows(body: PutMetricsRequest, now: number): MetricRow[] {
  return body.metricList.map((m, i) => {
    const dims = new Map<string, string>();
    for (const d of [...(m.dimensions ?? []), ...(m.optionalDimensions ?? [])])
      dims.set(d.name, d.value);
    // Checked before the rest so the message matches the client's own (ExceedDimensionLimit).
    if (dims.size > MAX_METRIC_DIMENSIONS) {
      throw Errors.validation(
        `metricList[${i}] (${m.metricName}) has ${dims.size} dimensions. Metric has maximum ${MAX_METRIC_DIMENSIONS} dimensions`,
      );
    }
    const valueProblem = metricValueProblem(m.value);
    if (valueProblem) throw Errors.validation(`metricList[${i}].value ${valueProblem}`);
    const timeMs = m.timestamp === undefined ? now : Date.parse(m.timestamp);
    if (Number.isNaN(timeMs))
      throw Errors.validation(`metricList[${i}].timestamp is not a date: ${m.timestamp}`);
    const row: MetricRow = {
      namespace: m.namespace ?? body.metricNamespace,
      metricName: m.metricName,
      unit: m.unit,
      value: m.value,
      timeMs,
      dimensions: [...dims.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    };
    const problem = seriesProblem(row);
    if (problem) throw Errors.validation(`metricList[${i}] (${m.metricName}): ${problem}`);
    return row;
  });
}
