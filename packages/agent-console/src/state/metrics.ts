/** The contact centre's `/metrics` (Prometheus text) reduced to the few numbers the console charts. */

/** Sum of every sample per metric name (comments and malformed lines skipped). */
export function parsePrometheus(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    const name = match[1]!;
    sums.set(name, (sums.get(name) ?? 0) + value);
  }
  return sums;
}

export interface Series {
  key: string;
  label: string;
  metric: string;
}

export const CHART_SERIES: Series[] = [
  { key: "waiting", label: "Waiting in queue", metric: "chat_widget_queue_waiting_contacts" },
  { key: "active", label: "Active chats", metric: "chat_widget_queue_active_chats" },
  { key: "client", label: "Client metrics received", metric: "chat_widget_metric_count" },
];

/** Points kept per series. */
export const CHART_POINTS = 30;

export type Samples = Record<string, number[]>;

export function addSample(
  samples: Samples,
  sums: Map<string, number>,
  max = CHART_POINTS,
): Samples {
  const next: Samples = {};
  for (const s of CHART_SERIES) {
    next[s.key] = [...(samples[s.key] ?? []), sums.get(s.metric) ?? 0].slice(-max);
  }
  return next;
}

/** SVG polyline points for values in a width × height box (0 at the bottom). */
export function polyline(values: number[], width: number, height: number, top: number): string {
  if (values.length === 0) return "";
  const scale = top > 0 ? top : 1;
  // A single point is drawn as a flat line across the box, so it is visible.
  const points = values.length === 1 ? [values[0]!, values[0]!] : values;
  const step = width / (points.length - 1);
  return points
    .map((v, i) => `${round(i * step)},${round(height - (v / scale) * height)}`)
    .join(" ");
}

const round = (n: number): number => Math.round(n * 10) / 10;
