/**
 * Telemetry retention (TELEMETRY_RETENTION_DAYS): received rows and quiet series expire, series
 * still receiving keep their counters, and the series cap makes room once quiet series are gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { METRIC_SERIES, RECOUNT_AFTER_MS, SeriesCap } from "./series-cap.js";
import {
  insertMetrics,
  insertWorkflowEvents,
  metricSeries,
  metricSeriesKey,
  sweepTelemetry,
  workflowEventCounts,
  type MetricRow,
} from "./store.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-11-01T00:00:00Z");
const metric = (metricName: string, value: number): MetricRow => ({
  namespace: "chat-widget",
  metricName,
  unit: "Count",
  value,
  timeMs: T0,
  dimensions: [["WidgetType", "Test"]],
});

describe("telemetry retention", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory" });
  }, 120_000);
  afterAll(() => db.close());

  const count = async (table: string) =>
    Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

  it("deletes rows received before the cutoff and series quiet since; a series still receiving keeps its counters", async () => {
    await insertMetrics(db, [metric("Quiet", 5), metric("Busy", 1), metric("Busy", 2)], T0);
    await insertMetrics(db, [metric("Busy", 4)], T0 + 8 * DAY);
    await insertWorkflowEvents(db, [{ workflowType: "w", event: "old", timeMs: T0, data: [] }], T0);
    await insertWorkflowEvents(
      db,
      [{ workflowType: "w", event: "new", timeMs: T0, data: [] }],
      T0 + 8 * DAY,
    );
    const summary = async () => (await metricSeries(db)).map((s) => [s.metricName, s.count, s.sum]);
    expect(await summary()).toEqual([
      ["Busy", 3, 7],
      ["Quiet", 1, 5],
    ]);

    await sweepTelemetry(db, T0 + 7 * DAY);
    expect(await summary()).toEqual([["Busy", 3, 7]]); // counters never go back
    expect(await count("telemetry_metrics")).toBe(1); // only the row received after the cutoff
    expect((await workflowEventCounts(db)).map((w) => w.event)).toEqual(["new"]);
    expect(await count("telemetry_workflow_events")).toBe(1);
  });

  it("the series cap counts again after RECOUNT_AFTER_MS, so series gone quiet make room", async () => {
    let now = T0 + 30 * DAY;
    const cap = new SeriesCap(METRIC_SERIES, 2, () => now);
    const write = (rows: MetricRow[]) =>
      cap.write(db, rows.map(metricSeriesKey), (tx) => insertMetrics(tx, rows, now));
    const refused = (rows: MetricRow[]) =>
      write(rows).then(
        () => false,
        (error: unknown) => isServiceError(error) && error.type === "ServiceQuotaExceededException",
      );
    await sweepTelemetry(db, now); // an empty store
    await write([metric("A", 1), metric("B", 1)]);
    expect(await refused([metric("C", 1)])).toBe(true);
    // A and B go quiet for longer than the retention and are swept.
    now += 8 * DAY;
    await sweepTelemetry(db, now - 7 * DAY);
    expect(await metricSeries(db)).toEqual([]);
    now += 1;
    const stillCounted = new SeriesCap(METRIC_SERIES, 2, () => now);
    // A cap that has not counted recently counts at once; ours trusts its count for a minute.
    await stillCounted.write(db, [metricSeriesKey(metric("C", 1))], async () => {});
    expect(await refused([metric("C", 1)])).toBe(false);
    expect((await metricSeries(db)).map((s) => s.metricName)).toEqual(["C"]);
    expect(RECOUNT_AFTER_MS).toBe(60_000);
  });
});
