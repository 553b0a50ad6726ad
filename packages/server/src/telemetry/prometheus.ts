/** The Prometheus text exposition format (version 0.0.4): HELP/TYPE lines, labels, escaping. */

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export interface Sample {
  /** The full sample name, e.g. `x_count`. */
  name: string;
  labels: [string, string][];
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "summary" | "untyped";
  samples: Sample[];
}

export const escapeLabelValue = (v: string): string =>
  v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

export const escapeHelp = (v: string): string => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

/** A valid label name from any text: invalid characters become `_`; never a leading digit or `__`. */
export function labelName(raw: string): string {
  let name = raw.replace(/[^a-zA-Z0-9_]/g, "_");
  if (!/^[a-zA-Z_]/.test(name)) name = `_${name}`;
  if (name.startsWith("__")) name = `x${name}`;
  return name;
}

export function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

/** Labels as written: a name given twice keeps its first value (a sample holds each name once). */
export function uniqueLabels(labels: [string, string][]): [string, string][] {
  const seen = new Set<string>();
  return labels.filter(([k]) => !seen.has(k) && !!seen.add(k));
}

function formatLabels(labels: [string, string][]): string {
  if (labels.length === 0) return "";
  const parts = uniqueLabels(labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`);
  return `{${parts.join(",")}}`;
}

export function formatFamilies(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`);
    lines.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples)
      lines.push(`${s.name}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
