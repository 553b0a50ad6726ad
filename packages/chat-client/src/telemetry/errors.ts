/**
 * Telemetry validation errors (docs/product.md §8): one base error with a `code`, one subclass per
 * failure, each with the spec's exact message.
 */

export type TelemetryErrorCode =
  "NullOrUndefined" | "AssertTrue" | "ExceedDimensionLimit" | "Initialization";

export class TelemetryError extends Error {
  readonly code: TelemetryErrorCode;

  constructor(code: TelemetryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = `${code}Exception`;
  }
}

/** A required value was null or undefined: "X is null or undefined". */
export class NullOrUndefinedException extends TelemetryError {
  constructor(paramName: string) {
    super("NullOrUndefined", `${paramName} is null or undefined`);
  }
}

/** A validation predicate was false: "Assertion failed". */
export class AssertTrueException extends TelemetryError {
  constructor() {
    super("AssertTrue", "Assertion failed");
  }
}

/** An 11th dimension was added to a metric. */
export class ExceedDimensionLimitException extends TelemetryError {
  constructor(dimensionName: string) {
    super(
      "ExceedDimensionLimit",
      `Could not add dimension '${dimensionName}'. Metric has maximum 10 dimensions`,
    );
  }
}

/** Telemetry could not start (the worker never answered, or could not be created). */
export class InitializationException extends TelemetryError {
  constructor(options?: { cause?: unknown }) {
    super("Initialization", "Initialization failed", options);
  }
}

export function assertExist<T>(value: T, paramName: string): asserts value is NonNullable<T> {
  if (value === null || value === undefined) throw new NullOrUndefinedException(paramName);
}

export function assertTrue(condition: unknown): asserts condition {
  if (!condition) throw new AssertTrueException();
}
