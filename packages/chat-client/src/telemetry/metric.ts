/**
 * A telemetry metric (docs/product.md §3, docs/protocol.md §8.5): validated on construction, at most 10
 * dimensions (required + optional together), dimension values stringified.
 */
import { MAX_METRIC_DIMENSIONS, METRIC_UNITS } from "@chat-widget/protocol";
import type { Dimension, MetricUnit, WireMetric } from "@chat-widget/protocol";
import {
  ExceedDimensionLimitException,
  NullOrUndefinedException,
  assertExist,
  assertTrue,
} from "./errors.js";

export interface DedupeOptions {
  /** A metric with the same namespace, name, unit and context younger than this is dropped. */
  dedupeIntervalMs: number;
  context?: string;
}

export interface MetricInit {
  metricName: string;
  unit: MetricUnit;
  value: number;
  namespace: string;
  /** Epoch milliseconds (from the injected clock). */
  timestamp: number;
  /** Values are stringified (null/undefined → "null", "" → " "). */
  dimensions?: { name: string; value: unknown }[];
  optionalDimensions?: { name: string; value: unknown }[];
  dedupeOptions?: DedupeOptions;
}

export function isMetricUnit(unit: unknown): unit is MetricUnit {
  return (METRIC_UNITS as readonly unknown[]).includes(unit);
}

/** `null`/`undefined` → "null", "" → " ", anything else its string form. */
export function dimensionValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value === "") return " ";
  // As chatjs does: an object's dimension reads "[object Object]" there too.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(value);
}

export class Metric {
  readonly metricName: string;
  readonly unit: MetricUnit;
  readonly value: number;
  readonly namespace: string;
  readonly timestamp: number;
  readonly dedupeOptions: DedupeOptions | undefined;
  private readonly dims: Dimension[] = [];
  private readonly optionalDims: Dimension[] = [];

  constructor(init: MetricInit) {
    assertExist(init, "metric");
    assertExist(init.metricName, "metricName");
    assertExist(init.value, "value");
    assertExist(init.unit, "unit");
    assertTrue(isMetricUnit(init.unit));
    assertTrue(typeof init.value === "number" && Number.isFinite(init.value));
    assertExist(init.namespace, "namespace");
    if (init.dedupeOptions !== undefined) {
      assertExist(init.dedupeOptions, "dedupeOptions");
      if (!init.dedupeOptions.dedupeIntervalMs)
        throw new NullOrUndefinedException("dedupeOptions[dedupeIntervalMs]");
    }
    this.metricName = init.metricName;
    this.unit = init.unit;
    this.value = init.value;
    this.namespace = init.namespace;
    this.timestamp = init.timestamp;
    this.dedupeOptions = init.dedupeOptions;
    for (const d of init.dimensions ?? []) this.addDimension(d.name, d.value);
    for (const d of init.optionalDimensions ?? []) this.addOptionalDimension(d.name, d.value);
  }

  get dimensions(): readonly Dimension[] {
    return this.dims;
  }

  get optionalDimensions(): readonly Dimension[] {
    return this.optionalDims;
  }

  /** Add or overwrite a dimension; an 11th dimension throws ExceedDimensionLimitException. */
  addDimension(name: string, value: unknown): this {
    return this.put(this.dims, name, value);
  }

  /** Optional dimensions count towards the same limit of 10. */
  addOptionalDimension(name: string, value: unknown): this {
    return this.put(this.optionalDims, name, value);
  }

  toWire(): WireMetric {
    const wire: WireMetric = {
      metricName: this.metricName,
      unit: this.unit,
      value: this.value,
      timestamp: new Date(this.timestamp).toISOString(),
      dimensions: this.dims.map((d) => ({ ...d })),
      optionalDimensions: this.optionalDims.map((d) => ({ ...d })),
      namespace: this.namespace,
    };
    if (this.dedupeOptions) wire.dedupeOptions = { ...this.dedupeOptions };
    return wire;
  }

  private put(target: Dimension[], name: string, value: unknown): this {
    assertExist(name, "name");
    const existing = target.find((d) => d.name === name);
    if (existing) {
      existing.value = dimensionValue(value);
      return this;
    }
    if (this.dims.length + this.optionalDims.length >= MAX_METRIC_DIMENSIONS) {
      throw new ExceedDimensionLimitException(name);
    }
    target.push({ name, value: dimensionValue(value) });
    return this;
  }
}
