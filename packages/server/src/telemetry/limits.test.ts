import { describe, expect, it } from "vitest";
import {
  MAX_DIMENSION_NAME_LENGTH,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_DIMENSIONS_LENGTH,
  MAX_METRIC_VALUE,
  metricValueProblem,
  parseDimensions,
  seriesProblem,
  type SeriesKey,
} from "./limits.js";

const series = (extra: Partial<SeriesKey> = {}): SeriesKey => ({
  namespace: "chat-widget",
  metricName: "SendMessage",
  unit: "Count",
  dimensions: [["WidgetType", "CustomChatWidget"]],
  ...extra,
});

describe("telemetry limits", () => {
  it("keeps finite values within ±MAX_METRIC_VALUE only", () => {
    for (const ok of [0, -0, 1.5, MAX_METRIC_VALUE, -MAX_METRIC_VALUE])
      expect(metricValueProblem(ok)).toBeUndefined();
    for (const bad of [NaN, Infinity, -Infinity, 1e308, MAX_METRIC_VALUE + 1])
      expect(metricValueProblem(bad)).toMatch(/must be/);
    // Two values at the bound, summed any number of times a store could hold, stay finite.
    expect(Number.isFinite(MAX_METRIC_VALUE * 2 ** 53)).toBe(true);
  });

  it("bounds names, unit and dimensions of a series", () => {
    expect(seriesProblem(series())).toBeUndefined();
    expect(seriesProblem(series({ namespace: "" }))).toMatch(/namespace/);
    expect(seriesProblem(series({ metricName: "m".repeat(256) }))).toMatch(/metricName/);
    expect(seriesProblem(series({ unit: "Bytes" }))).toMatch(/unit/);
    const dims = (n: number): [string, string][] =>
      Array.from({ length: n }, (_, i) => [`d${i}`, "v"]);
    expect(seriesProblem(series({ dimensions: dims(10) }))).toBeUndefined();
    expect(seriesProblem(series({ dimensions: dims(11) }))).toMatch(/maximum 10 dimensions/);
    expect(
      seriesProblem(series({ dimensions: [["n".repeat(MAX_DIMENSION_NAME_LENGTH + 1), "v"]] })),
    ).toMatch(/dimension names/);
    expect(seriesProblem(series({ dimensions: [["", "v"]] }))).toMatch(/dimension names/);
    expect(
      seriesProblem(series({ dimensions: [["n", "v".repeat(MAX_DIMENSION_VALUE_LENGTH + 1)]] })),
    ).toMatch(/dimension values/);
    const wide: [string, string][] = [
      ["a", "v".repeat(MAX_DIMENSION_VALUE_LENGTH)],
      ["b", "v".repeat(MAX_DIMENSIONS_LENGTH - MAX_DIMENSION_VALUE_LENGTH)],
    ];
    expect(seriesProblem(series({ dimensions: wide }))).toMatch(/together/);
  });

  it("reads stored dimensions only when they are [name, value] string pairs", () => {
    expect(parseDimensions('[["a","1"],["b","2"]]')).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(parseDimensions("[]")).toEqual([]);
    for (const bad of [
      "{oops",
      '{"a":"1"}',
      '[["a",1]]',
      '[["a"]]',
      '[["a","1","2"]]',
      "null",
      '"x"',
    ])
      expect(parseDimensions(bad)).toBeUndefined();
  });
});
