import { setTimeout as delay } from "node:timers/promises";
import type { Db } from "./db.js";

export interface GroupCommitOptions<T, R> {
  db: Db;
  /** The most entries one transaction commits. */
  maxBatch: number;
  /**
   * Write these entries atomically (one statement, or a transaction of its own): all of them
   * or, when it throws, none. Answers each entry's result, in the batch's order (nothing when
   * R is void).
   */
  write: (db: Db, batch: readonly T[]) => Promise<readonly R[] | void>;
  /** How its batches are paced (see TurnBatchesOptions.restMs; default: no rest). */
  pace?: Omit<TurnBatchesOptions, "maxBatch">;
}

interface Waiting<T, R> {
  entry: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** How TurnBatches paces its batches (see restMs). */
export interface TurnBatchesOptions {
  /** The most entries one batch holds. */
  maxBatch: number;
  /**
   * After a commit of fewer than `restBelow` entries, the next batch of fewer than `maxBatch`
   * begins no sooner than `restMs` after it ended (default 0: after one turn of the event loop).
   * For an engine that commits on this process's core (PGlite), whose every transaction costs
   * that core a fixed share: under load, the entries that arrive while it rests join the next
   * batch instead of making small batches of their own. An idle server, its last commit long
   * past, commits at once as before; batches already large (a backlog) do not rest.
   */
  restMs?: number;
  restBelow?: number;
  /** The clock and the timer of the rest (tests give their own). */
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Entries waiting for the next turn of the event loop, then handed to `commit` at most
 * `maxBatch` at a time, one batch after another: what arrives while a batch commits (and, with
 * `restMs`, rests) waits for the next. No timer otherwise: an idle server commits a lone entry
 * after one turn of its event loop.
 */
export class TurnBatches<E> {
  private readonly queue: E[] = [];
  private running = false;
  /** When the next batch may begin (see TurnBatchesOptions.restMs). */
  private restUntil = Number.NEGATIVE_INFINITY;
  private readonly o: Required<TurnBatchesOptions>;

  constructor(
    options: TurnBatchesOptions,
    private readonly commit: (batch: E[]) => Promise<void>,
  ) {
    this.o = {
      restMs: 0,
      restBelow: 0,
      now: () => performance.now(),
      sleep: (ms) => delay(ms),
      ...options,
    };
  }

  push(entry: E): void {
    this.queue.push(entry);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        // One turn of the event loop first, so that the requests that arrived meanwhile join:
        // the embedded store answers without one, and would otherwise commit one at a time.
        await new Promise((resolve) => setImmediate(resolve));
        const resting = this.restUntil - this.o.now();
        if (resting > 0 && this.queue.length < this.o.maxBatch) await this.o.sleep(resting);
        const batch = this.queue.splice(0, this.o.maxBatch);
        await this.commit(batch);
        const rests = batch.length < this.o.restBelow;
        this.restUntil = rests ? this.o.now() + this.o.restMs : Number.NEGATIVE_INFINITY;
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * Group commit of independent writes: entries arriving while a write runs wait for it, then
 * commit together in one atomic write (at most `maxBatch`; see TurnBatches). `commit` resolves
 * only once its entry is committed, with its result. When a batch's write fails, nothing of it
 * is committed and each entry is written again on its own, so that one bad entry cannot refuse
 * the others.
 */
export class GroupCommit<T, R = void> {
  private readonly batches: TurnBatches<Waiting<T, R>>;

  constructor(private readonly o: GroupCommitOptions<T, R>) {
    this.batches = new TurnBatches({ ...o.pace, maxBatch: o.maxBatch }, (batch) =>
      this.commitBatch(batch),
    );
  }

  commit(entry: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.batches.push({ entry, resolve, reject });
    });
  }

  private async commitBatch(batch: Waiting<T, R>[]): Promise<void> {
    const write = (entries: readonly T[]) => this.o.write(this.o.db, entries);
    let results: readonly R[] | void;
    try {
      results = await write(batch.map((w) => w.entry));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const waiting of batch)
        await write([waiting.entry]).then(
          (alone) => waiting.resolve(alone?.[0] as R),
          waiting.reject,
        );
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(results?.[i] as R));
  }
}
