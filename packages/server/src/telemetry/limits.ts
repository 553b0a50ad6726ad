/**
 * What telemetry keeps: bounds on metric values, names and dimensions, and on distinct series.
 * Ingest refuses what is outside them; /metrics skips any stored row outside them, so a row
 * that got past ingest (or was written to the store directly) can never break the exposition.
 */
import { MAX_METRIC_DIMENSIONS, METRIC_UNITS } from "@chat-widget/protocol";

/**
 * The largest |value| of one metric. Widget metrics are counts and latencies: 1e9 is 11 days in
 * milliseconds. Summing values this small cannot leave the finite doubles in any real number of
 * rows (it would take ~1e299 of them), so a sum never becomes ±Infinity.
 */
export const MAX_METRIC_VALUE = 1e9;

/** Namespace, metric name, workflow type and event: as the schemas allow (CloudWatch's 255). */
export const MAX_NAME_LENGTH = 255;
/** A dimension name becomes a Prometheus label name (`dim_<name>`): short, like the widget's. */
export const MAX_DIMENSION_NAME_LENGTH = 64;
export const MAX_DIMENSION_VALUE_LENGTH = 256;
/**
 * Names plus values of all dimensions of one metric: 10 dimensions of the widest kind would make
 * one exposition line ~3 kB; this keeps a line (and so /metrics, with MAX_SERIES) small.
 */
export const MAX_DIMENSIONS_LENGTH = 512;

/**
 * Distinct series per store: metric series (namespace, metric name, unit, dimension set) and,
 * separately, workflow series (type, event). Every series is a line of /metrics, so without a cap
 * any client could grow the exposition without end. A request that would add series beyond it is
 * refused whole (402 ServiceQuotaExceededException) rather than folded into an "other" series:
 * the client learns its data was not kept, and nothing stored is ever mislabelled.
 */
export const MAX_SERIES = 1000;

/** Why a metric value cannot be kept, or undefined when it can. */
export function metricValueProblem(value: number): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value))
    return `must be a finite number, not ${String(value)}`;
  if (Math.abs(value) > MAX_METRIC_VALUE)
    return `must be between -${MAX_METRIC_VALUE} and ${MAX_METRIC_VALUE}, not ${value}`;
  return undefined;
}

export interface SeriesKey {
  namespace: string;
  metricName: string;
  unit: string;
  /** [name, value] pairs. */
  dimensions: [string, string][];
}

/** Why a metric series cannot be kept or shown, or undefined when it can. */
export function seriesProblem(s: SeriesKey): string | undefined {
  if (!isName(s.namespace)) return `namespace must be 1 to ${MAX_NAME_LENGTH} characters`;
  if (!isName(s.metricName)) return `metricName must be 1 to ${MAX_NAME_LENGTH} characters`;
  if (!(METRIC_UNITS as readonly string[]).includes(s.unit))
    return `unit is not one of ${METRIC_UNITS.join(", ")}`;
  if (s.dimensions.length > MAX_METRIC_DIMENSIONS)
    return `has ${s.dimensions.length} dimensions. Metric has maximum ${MAX_METRIC_DIMENSIONS} dimensions`;
  let length = 0;
  for (const [name, value] of s.dimensions) {
    if (name.length < 1 || name.length > MAX_DIMENSION_NAME_LENGTH)
      return `dimension names must be 1 to ${MAX_DIMENSION_NAME_LENGTH} characters`;
    if (value.length > MAX_DIMENSION_VALUE_LENGTH)
      return `dimension values must be at most ${MAX_DIMENSION_VALUE_LENGTH} characters`;
    length += name.length + value.length;
  }
  if (length > MAX_DIMENSIONS_LENGTH)
    return `dimension names and values together must be at most ${MAX_DIMENSIONS_LENGTH} characters, not ${length}`;
  return undefined;
}

/** A workflow type or event that can be a label value. */
export const isName = (v: unknown): v is string =>
  typeof v === "string" && v.length >= 1 && v.length <= MAX_NAME_LENGTH;

/** Dimensions read back from the store: [name, value] string pairs, or undefined when malformed. */
export function parseDimensions(json: string): [string, string][] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const pairs: [string, string][] = [];
  for (const pair of parsed as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [name, value] = pair as unknown[];
    if (typeof name !== "string" || typeof value !== "string") return undefined;
    pairs.push([name, value]);
  }
  return pairs;
}
