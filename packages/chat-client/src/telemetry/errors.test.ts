import { describe, expect, it } from "vitest";
import {
  AssertTrueException,
  ExceedDimensionLimitException,
  InitializationException,
  NullOrUndefinedException,
  TelemetryError,
  assertExist,
  assertTrue,
} from "./errors.js";

describe("telemetry errors (docs/product.md §8)", () => {
  it('NullOrUndefinedException: "X is null or undefined", code NullOrUndefined', () => {
    const error = new NullOrUndefinedException("metricName");
    expect(error.message).toBe("metricName is null or undefined");
    expect(error.name).toBe("NullOrUndefinedException");
    expect(error.code).toBe("NullOrUndefined");
    expect(error).toBeInstanceOf(TelemetryError);
    expect(error).toBeInstanceOf(Error);
  });

  it('AssertTrueException: "Assertion failed", code AssertTrue', () => {
    const error = new AssertTrueException();
    expect(error.message).toBe("Assertion failed");
    expect(error.name).toBe("AssertTrueException");
    expect(error.code).toBe("AssertTrue");
  });

  it('ExceedDimensionLimitException: "Could not add dimension ... Metric has maximum 10 dimensions"', () => {
    const error = new ExceedDimensionLimitException("Region");
    expect(error.message).toBe(
      "Could not add dimension 'Region'. Metric has maximum 10 dimensions",
    );
    expect(error.message).toMatch(/^Could not add dimension .* Metric has maximum 10 dimensions$/);
    expect(error.name).toBe("ExceedDimensionLimitException");
    expect(error.code).toBe("ExceedDimensionLimit");
  });

  it('InitializationException: "Initialization failed", code Initialization, keeps its cause', () => {
    const cause = new Error("worker script blocked");
    const error = new InitializationException({ cause });
    expect(error.message).toBe("Initialization failed");
    expect(error.name).toBe("InitializationException");
    expect(error.code).toBe("Initialization");
    expect(error.cause).toBe(cause);
  });

  it("assertExist throws NullOrUndefinedException for null and undefined only", () => {
    expect(() => assertExist(null, "value")).toThrow(new NullOrUndefinedException("value"));
    expect(() => assertExist(undefined, "unit")).toThrow("unit is null or undefined");
    expect(() => assertExist(0, "value")).not.toThrow();
    expect(() => assertExist("", "value")).not.toThrow();
  });

  it("assertTrue throws AssertTrueException for a false condition", () => {
    expect(() => assertTrue(false)).toThrow(AssertTrueException);
    expect(() => assertTrue(true)).not.toThrow();
  });
});
