import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatFamilies, formatValue, labelName } from "./prometheus.js";

describe("Prometheus text format", () => {
  it("writes HELP and TYPE lines, then one line per sample", () => {
    const text = formatFamilies([
      {
        name: "m",
        help: "Help with a \\ and\na newline",
        type: "summary",
        samples: [
          { name: "m_count", labels: [["a", "1"]], value: 3 },
          { name: "m_sum", labels: [], value: 1.5 },
        ],
      },
    ]);
    expect(text).toBe(
      '# HELP m Help with a \\\\ and\\na newline\n# TYPE m summary\nm_count{a="1"} 3\nm_sum 1.5\n',
    );
  });

  it("escapes backslash, double quote and newline in label values", () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });

  it("makes label names valid and keeps the first of two equal names", () => {
    expect(labelName("Widget-Type")).toBe("Widget_Type");
    expect(labelName("1st")).toBe("_1st");
    expect(labelName("__name")).toBe("x__name");
    const text = formatFamilies([
      {
        name: "g",
        help: "h",
        type: "gauge",
        samples: [
          {
            name: "g",
            labels: [
              ["a", "1"],
              ["a", "2"],
            ],
            value: 1,
          },
        ],
      },
    ]);
    expect(text).toContain('g{a="1"} 1');
  });

  it("writes special values as Prometheus does", () => {
    expect([NaN, Infinity, -Infinity, 0.25].map(formatValue)).toEqual([
      "NaN",
      "+Inf",
      "-Inf",
      "0.25",
    ]);
  });
});
