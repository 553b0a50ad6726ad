import { describe, expect, it } from "vitest";
import { METRIC_FAMILY, telemetryFamilies } from "./metrics-text.js";
import type { MetricSeries } from "./store.js";

const series = (extra: Partial<MetricSeries> = {}): MetricSeries => ({
  namespace: "chat-widget",
  metricName: "M",
  unit: "Count",
  dimensions: [],
  count: 1,
  sum: 1,
  ...extra,
});

describe("telemetryFamilies", () => {
  it("leaves out series whose count or sum is not finite", () => {
    const [metric] = telemetryFamilies(
      [
        series({ metricName: "Inf", sum: Infinity }),
        series({ metricName: "NaN", sum: NaN }),
        series({ metricName: "NaNCount", count: NaN }),
        series({ metricName: "Ok", sum: 4 }),
      ],
      [],
    );
    expect(metric!.samples.map((s) => [s.name, s.value])).toEqual([
      [`${METRIC_FAMILY}_count`, 1],
      [`${METRIC_FAMILY}_sum`, 4],
    ]);
  });

  it("sums stored series that end up with the same labels, so no series repeats", () => {
    const [metric] = telemetryFamilies(
      [
        series({ dimensions: [["a-b", "x"]], count: 2, sum: 3 }),
        series({ dimensions: [["a_b", "x"]], count: 1, sum: 5 }),
        series({ dimensions: [["a_b", "y"]], count: 1, sum: 1 }),
      ],
      [],
    );
    expect(metric!.samples.map((s) => [s.labels.at(-1), s.value])).toEqual([
      [["dim_a_b", "x"], 3],
      [["dim_a_b", "x"], 8],
      [["dim_a_b", "y"], 1],
      [["dim_a_b", "y"], 1],
    ]);
  });
});
