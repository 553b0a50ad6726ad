/** A small live chart of the contact centre's telemetry (`GET /metrics`), polled every few seconds. */
import { useEffect, useState } from "react";
import { errorText } from "../api/errors.js";
import {
  addSample,
  CHART_SERIES,
  parsePrometheus,
  polyline,
  type Samples,
} from "../state/metrics.js";

export const METRICS_POLL_MS = 5000;
const W = 220;
const H = 60;
const COLOURS = ["#e56606", "#2563eb", "#16a34a"];

export interface MetricsChartProps {
  load(): Promise<string>;
  intervalMs?: number;
}

export function MetricsChart({ load, intervalMs = METRICS_POLL_MS }: MetricsChartProps) {
  const [samples, setSamples] = useState<Samples>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const poll = async () => {
      try {
        const sums = parsePrometheus(await load());
        if (!alive) return;
        setSamples((s) => addSample(s, sums));
        setError(null);
      } catch (err) {
        if (alive) setError(`Metrics unavailable: ${errorText(err)}`);
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), intervalMs);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [load, intervalMs]);

  const top = Math.max(1, ...CHART_SERIES.flatMap((s) => samples[s.key] ?? []));
  return (
    <section className="metrics" aria-labelledby="metrics-title">
      <h2 id="metrics-title">Live metrics</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label="Metrics over the last minutes"
      >
        <rect
          x={0}
          y={0}
          width={W}
          height={H}
          fill="none"
          style={{ stroke: "var(--chart-frame)" }}
        />
        {CHART_SERIES.map((s, i) => (
          <polyline
            key={s.key}
            data-series={s.key}
            points={polyline(samples[s.key] ?? [], W, H - 2, top)}
            fill="none"
            stroke={COLOURS[i]}
            strokeWidth={2}
          />
        ))}
      </svg>
      <ul className="legend">
        {CHART_SERIES.map((s, i) => {
          const values = samples[s.key] ?? [];
          return (
            <li key={s.key}>
              <span className="swatch" style={{ background: COLOURS[i] }} aria-hidden="true" />
              {s.label}: <strong data-testid={`metric-${s.key}`}>{values.at(-1) ?? "–"}</strong>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
