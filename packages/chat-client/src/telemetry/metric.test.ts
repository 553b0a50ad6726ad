import { METRIC_UNITS } from "@chat-widget/protocol";
import type { MetricUnit } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import {
  AssertTrueException,
  ExceedDimensionLimitException,
  NullOrUndefinedException,
} from "./errors.js";
import { Metric } from "./metric.js";
import type { MetricInit } from "./metric.js";

const base: MetricInit = {
  metricName: "SendMessage",
  unit: "Milliseconds",
  value: 182,
  namespace: "chat-widget",
  timestamp: Date.UTC(2025, 0, 1, 10, 0, 7, 182),
};

function dims(n: number, prefix = "D") {
  return Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i + 1}`, value: `v${i + 1}` }));
}

describe("Metric model (docs/product.md §3, §5; docs/protocol.md §8.5)", () => {
  it.each(METRIC_UNITS)(
    "unit must be Count, Seconds, Milliseconds or Microseconds: %s is accepted",
    (unit) => {
      expect(new Metric({ ...base, unit }).unit).toBe(unit);
    },
  );

  it("any other unit throws AssertTrueException (Assertion failed)", () => {
    expect(() => new Metric({ ...base, unit: "Bytes" as MetricUnit })).toThrow(AssertTrueException);
    expect(() => new Metric({ ...base, unit: "count" as MetricUnit })).toThrow("Assertion failed");
  });

  it.each(["metricName", "unit", "value"] as const)(
    "required values must not be null: %s null throws NullOrUndefinedException",
    (field) => {
      const init = { ...base, [field]: null };
      expect(() => new Metric(init)).toThrow(new NullOrUndefinedException(field));
      expect(() => new Metric(init)).toThrow(`${field} is null or undefined`);
    },
  );

  it("a value that is not a finite number fails the assertion", () => {
    expect(() => new Metric({ ...base, value: Number.NaN })).toThrow(AssertTrueException);
    expect(() => new Metric({ ...base, value: "3" as unknown as number })).toThrow(
      AssertTrueException,
    );
  });

  it("at most 10 dimensions: the 10th is accepted, the 11th throws ExceedDimensionLimitException", () => {
    const metric = new Metric({ ...base, dimensions: dims(9) });
    metric.addDimension("D10", "v10");
    expect(metric.dimensions).toHaveLength(10);
    expect(() => metric.addDimension("D11", "v11")).toThrow(ExceedDimensionLimitException);
    expect(() => metric.addDimension("D11", "v11")).toThrow(
      "Could not add dimension 'D11'. Metric has maximum 10 dimensions",
    );
    expect(metric.dimensions).toHaveLength(10);
  });

  it("dimensions and optional dimensions count together towards the 10", () => {
    const metric = new Metric({ ...base, dimensions: dims(6), optionalDimensions: dims(4, "O") });
    expect(() => metric.addOptionalDimension("O5", "x")).toThrow(ExceedDimensionLimitException);
    expect(() => metric.addDimension("D7", "x")).toThrow(ExceedDimensionLimitException);
    expect(() => new Metric({ ...base, dimensions: dims(11) })).toThrow(
      ExceedDimensionLimitException,
    );
  });

  it("re-adding a dimension name overwrites its value, even at the limit", () => {
    const metric = new Metric({ ...base, dimensions: dims(10) });
    metric.addDimension("D3", "changed");
    expect(metric.dimensions).toHaveLength(10);
    expect(metric.dimensions[2]).toEqual({ name: "D3", value: "changed" });
  });

  it('dimension values are stringified: null/undefined → "null", "" → " "', () => {
    const metric = new Metric(base)
      .addDimension("A", null)
      .addDimension("B", undefined)
      .addDimension("C", "")
      .addDimension("D", 42)
      .addDimension("E", true);
    expect(metric.dimensions.map((d) => d.value)).toEqual(["null", "null", " ", "42", "true"]);
  });

  it("a dimension without a name throws NullOrUndefinedException", () => {
    expect(() => new Metric(base).addDimension(null as unknown as string, "x")).toThrow(
      "name is null or undefined",
    );
  });

  it("dedupeOptions must carry dedupeIntervalMs", () => {
    const noInterval = { ...base, dedupeOptions: { context: "tab" } } as unknown as MetricInit;
    expect(() => new Metric(noInterval)).toThrow(
      "dedupeOptions[dedupeIntervalMs] is null or undefined",
    );
    expect(new Metric({ ...base, dedupeOptions: { dedupeIntervalMs: 500 } }).dedupeOptions).toEqual(
      {
        dedupeIntervalMs: 500,
      },
    );
  });

  it("serialises to the put-metrics wire shape with an ISO timestamp", () => {
    const metric = new Metric({
      ...base,
      dimensions: [
        { name: "WidgetType", value: "CustomChatWidget" },
        { name: "Metric", value: "Latency" },
      ],
    });
    expect(metric.toWire()).toEqual({
      metricName: "SendMessage",
      unit: "Milliseconds",
      value: 182,
      timestamp: "2025-01-01T10:00:07.182Z",
      dimensions: [
        { name: "WidgetType", value: "CustomChatWidget" },
        { name: "Metric", value: "Latency" },
      ],
      optionalDimensions: [],
      namespace: "chat-widget",
    });
  });
});
