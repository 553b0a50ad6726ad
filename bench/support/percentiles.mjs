// Percentiles of a list of numbers (nearest-rank), and the median of a list of runs' figures.

/** The p-th percentile (0 < p ≤ 100) by nearest rank; NaN for an empty list. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Median, 95th and 99th percentile of one run's samples. */
export const spread = (values) => ({
  median: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
});
