import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { SeriesCap, WORKFLOW_SERIES } from "./series-cap.js";
import { insertWorkflowEvents, workflowSeriesKey, type WorkflowEventRow } from "./store.js";

const event = (workflowType: string, event = "e"): WorkflowEventRow => ({
  workflowType,
  event,
  timeMs: 0,
  data: [],
});

describe("SeriesCap", () => {
  let db: Db;
  const counts: string[] = [];
  beforeAll(async () => {
    const real = await openDb({ dataDir: "memory" });
    // Records the distinct-series counts, which scan the table.
    const spy = (inner: Db): Db => ({
      ...inner,
      query: (sql, params) => {
        if (sql.includes("count(*)")) counts.push(sql);
        return inner.query(sql, params);
      },
      transaction: (fn) => inner.transaction((tx) => fn(spy(tx))),
    });
    db = spy(real);
  }, 120_000);
  afterAll(() => db.close());

  const write = (cap: SeriesCap, rows: WorkflowEventRow[]) =>
    cap.write(db, rows.map(workflowSeriesKey), (tx) => insertWorkflowEvents(tx, rows, 0));
  const refused = async (run: Promise<void>): Promise<string> => {
    try {
      await run;
    } catch (error) {
      if (isServiceError(error) && error.type === "ServiceQuotaExceededException")
        return error.message;
      throw error;
    }
    throw new Error("not refused");
  };
  const stored = async () =>
    (await db.query("SELECT workflow_type FROM telemetry_workflow_events")).length;

  it("admits new series up to the cap, then refuses a request bringing more, whole", async () => {
    const cap = new SeriesCap(WORKFLOW_SERIES, 3);
    await write(cap, [event("a"), event("a"), event("b")]);
    expect(await refused(write(cap, [event("a"), event("c"), event("d")]))).toMatch(
      /at most 3 workflow series.*2 are stored.*would add 2/,
    );
    expect(await stored()).toBe(3);
    await write(cap, [event("c"), event("a")]);
    expect(await refused(write(cap, [event("a", "other")]))).toContain("would add 1");
    // Known series go on being taken.
    await write(cap, [event("a"), event("b"), event("c")]);
    expect(await stored()).toBe(8);
  });

  it("counts the table again only when a request may fit, and shares the cap between processes", async () => {
    // A second process on the same store: it has not seen the series the first one stored.
    const other = new SeriesCap(WORKFLOW_SERIES, 3);
    counts.length = 0;
    expect(await refused(write(other, [event("x")]))).toContain("3 are stored");
    expect(counts).toHaveLength(1);
    // Now it knows at least 3 are stored: a new series is refused without a scan.
    expect(await refused(write(other, [event("y")]))).toContain("3 are stored");
    expect(counts).toHaveLength(1);
    await write(other, [event("a")]);
    expect(counts).toHaveLength(1);
  });
});
