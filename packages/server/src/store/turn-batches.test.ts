import { afterAll, describe, expect, it, vi } from "vitest";
import type { Db } from "./db.js";
import { GroupCommit, TurnBatches, type TurnBatchesOptions } from "./group-commit.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";
import { TEST_DATABASE_URL } from "../../test/support/databases.js";

/** A commit the test ends, on a clock and a timer the test moves. */
function harness(options: Pick<TurnBatchesOptions, "maxBatch" | "restMs" | "restBelow">) {
  let clock = 0;
  const batches: string[][] = [];
  const rests: number[] = [];
  let endCommit: (() => void) | null = null;
  let endRest: (() => void) | null = null;
  const batcher = new TurnBatches<string>(
    {
      ...options,
      now: () => clock,
      sleep: (ms) => {
        rests.push(ms);
        return new Promise<void>((resolve) => (endRest = resolve));
      },
    },
    (batch) => {
      batches.push(batch);
      return new Promise<void>((resolve) => (endCommit = resolve));
    },
  );
  return {
    batcher,
    batches,
    rests,
    set clock(ms: number) {
      clock = ms;
    },
    /** Ends the commit under way (once it has begun). */
    async endCommit(): Promise<void> {
      await vi.waitFor(() => expect(endCommit).not.toBeNull());
      const end = endCommit!;
      endCommit = null;
      end();
    },
    async endRest(): Promise<void> {
      await vi.waitFor(() => expect(endRest).not.toBeNull());
      const end = endRest!;
      endRest = null;
      end();
    },
  };
}

describe("TurnBatches", () => {
  it("commits what arrived in one turn together, at most maxBatch a batch, in order", async () => {
    const h = harness({ maxBatch: 2 });
    for (const entry of ["a", "b", "c", "d", "e"]) h.batcher.push(entry);
    await h.endCommit();
    await h.endCommit();
    await h.endCommit();
    expect(h.batches).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(h.rests).toEqual([]);
  });

  it("without restMs, begins the next batch one turn after the last commit, never resting", async () => {
    const h = harness({ maxBatch: 10 });
    h.batcher.push("a");
    await vi.waitFor(() => expect(h.batches).toHaveLength(1));
    h.batcher.push("b");
    h.batcher.push("c");
    await h.endCommit();
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b", "c"]]);
    expect(h.rests).toEqual([]);
  });

  it("under load, rests until restMs after the last commit; what arrives meanwhile joins", async () => {
    const h = harness({ maxBatch: 10, restMs: 1, restBelow: 10 });
    h.batcher.push("a");
    await vi.waitFor(() => expect(h.batches).toHaveLength(1));
    h.batcher.push("b");
    h.clock = 10.4;
    await h.endCommit(); // ended at 10.4: the next begins at 11.4 at the soonest
    await vi.waitFor(() => expect(h.rests).toHaveLength(1));
    expect(h.rests[0]).toBeCloseTo(1, 9);
    h.batcher.push("c");
    expect(h.batches).toHaveLength(1);
    await h.endRest();
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b", "c"]]);
    expect(h.rests).toHaveLength(1);
  });

  it("rests only for what remains of restMs since the last commit ended", async () => {
    const h = harness({ maxBatch: 10, restMs: 1, restBelow: 10 });
    h.batcher.push("a");
    await vi.waitFor(() => expect(h.batches).toHaveLength(1));
    h.clock = 10;
    await h.endCommit();
    h.clock = 10.75; // a quarter of a millisecond of the rest is left when "b" arrives
    h.batcher.push("b");
    await vi.waitFor(() => expect(h.rests).toHaveLength(1));
    expect(h.rests[0]).toBeCloseTo(0.25, 9);
    await h.endRest();
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b"]]);
  });

  it("commits at once once the rest is over: an idle server adds no wait", async () => {
    const h = harness({ maxBatch: 10, restMs: 1, restBelow: 10 });
    h.batcher.push("a");
    h.clock = 5;
    await h.endCommit();
    h.clock = 6; // exactly restMs later
    h.batcher.push("b");
    await h.endCommit();
    h.clock = 100;
    h.batcher.push("c");
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b"], ["c"]]);
    expect(h.rests).toEqual([]);
  });

  it("does not rest while a full batch waits, and rests before the partial one after it", async () => {
    const h = harness({ maxBatch: 2, restMs: 1, restBelow: 10 });
    h.batcher.push("a");
    await vi.waitFor(() => expect(h.batches).toHaveLength(1));
    for (const entry of ["b", "c", "d"]) h.batcher.push(entry);
    await h.endCommit();
    await vi.waitFor(() => expect(h.batches).toHaveLength(2));
    expect(h.rests).toEqual([]);
    await h.endCommit();
    await vi.waitFor(() => expect(h.rests).toEqual([1]));
    await h.endRest();
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("rests only after a batch smaller than restBelow: a backlog's large batches go on at once", async () => {
    const h = harness({ maxBatch: 10, restMs: 1, restBelow: 3 });
    h.batcher.push("a");
    await vi.waitFor(() => expect(h.batches).toHaveLength(1));
    for (const entry of ["b", "c", "d"]) h.batcher.push(entry);
    await h.endCommit(); // "a" alone: the next rests
    await vi.waitFor(() => expect(h.rests).toEqual([1]));
    await h.endRest();
    await vi.waitFor(() => expect(h.batches).toHaveLength(2));
    h.batcher.push("e");
    await h.endCommit(); // three: the next does not rest
    await h.endCommit();
    expect(h.batches).toEqual([["a"], ["b", "c", "d"], ["e"]]);
    expect(h.rests).toEqual([1]);
  });
});

describe("GroupCommit's pace", () => {
  it("rests as told after a small batch: a write asked meanwhile joins the next", async () => {
    let clock = 0;
    const rests: number[] = [];
    let endRest: (() => void) | null = null;
    const writes: string[][] = [];
    const group = new GroupCommit<string, string>({
      db: {} as Db,
      maxBatch: 10,
      write: async (_db, batch) => {
        writes.push([...batch]);
        clock += 1;
        return batch.map((entry) => entry.toUpperCase());
      },
      pace: {
        restMs: 5,
        restBelow: 10,
        now: () => clock,
        sleep: (ms) => {
          rests.push(ms);
          return new Promise<void>((resolve) => (endRest = resolve));
        },
      },
    });
    expect(await group.commit("a")).toBe("A"); // the first: nothing to rest after
    const b = group.commit("b");
    await vi.waitFor(() => expect(rests).toEqual([5]));
    const c = group.commit("c");
    endRest!();
    expect(await Promise.all([b, c])).toEqual(["B", "C"]);
    expect(writes).toEqual([["a"], ["b", "c"]]);
  });
});

describe("which engines commit on this process's core", () => {
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
  });

  it("PGlite is embedded (its message batches rest under load); PostgreSQL is not", async () => {
    const pglite = await openPglite("memory");
    opened.push(pglite);
    expect(pglite.embedded).toBe(true);
    const postgres = await openPostgres(TEST_DATABASE_URL);
    opened.push(postgres);
    expect(postgres.embedded).toBeFalsy();
  });
});
