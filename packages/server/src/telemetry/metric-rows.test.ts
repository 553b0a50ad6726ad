import { WIDGET_METRIC_NAMESPACE, type WireMetric } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import { MAX_METRIC_VALUE } from "./limits.js";
import { metricRows } from "./metric-rows.js";

const NOW = Date.UTC(2026, 0, 1);
const metric = (extra: Partial<WireMetric> = {}): WireMetric => ({
  metricName: "SendMessage",
  unit: "Count",
  value: 1,
  timestamp: "2026-01-01T10:00:00.000Z",
  dimensions: [{ name: "WidgetType", value: "CustomChatWidget" }],
  optionalDimensions: [],
  namespace: WIDGET_METRIC_NAMESPACE,
  ...extra,
});
const rows = (...metricList: WireMetric[]) =>
  metricRows({ metricNamespace: WIDGET_METRIC_NAMESPACE, metricList }, NOW);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isServiceError(error) && error.type === "ValidationException") return error.message;
    throw error;
  }
  throw new Error("not refused");
}

describe("metricRows", () => {
  it("merges dimensions and optional dimensions, sorted by name, the later value winning", () => {
    const [row] = rows(
      metric({
        dimensions: [
          { name: "b", value: "1" },
          { name: "a", value: "1" },
        ],
        optionalDimensions: [{ name: "b", value: "2" }],
        timestamp: undefined as unknown as string,
      }),
    );
    expect(row).toMatchObject({
      dimensions: [
        ["a", "1"],
        ["b", "2"],
      ],
      timeMs: NOW,
    });
  });

  it("refuses a value that is not finite or beyond the bound, naming the metric", () => {
    expect(rows(metric({ value: MAX_METRIC_VALUE }))).toHaveLength(1);
    for (const value of [1e308, -1e308, Infinity, NaN, MAX_METRIC_VALUE * 1.5])
      expect(refusal(() => rows(metric(), metric({ value })))).toContain("metricList[1].value");
  });

  it("refuses dimensions too wide together and unknown timestamps", () => {
    const dimensions = Array.from({ length: 10 }, (_, i) => ({
      name: `d${i}`,
      value: "v".repeat(100),
    }));
    expect(refusal(() => rows(metric({ dimensions })))).toMatch(/metricList\[0\].*together/);
    expect(refusal(() => rows(metric({ timestamp: "yesterday" })))).toContain("timestamp");
  });
});
