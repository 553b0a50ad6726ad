/**
 * The cap on distinct series in one telemetry series table (limits.ts MAX_SERIES): a write that
 * brings only known series goes straight in; one that brings new series checks and writes under
 * a store-wide advisory lock, so several processes sharing a store never pass the cap together.
 */
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";

export interface SeriesTable {
  /** Trusted identifiers (constants below), interpolated into SQL. */
  table: string;
  columns: string[];
  /** What the series are, for the refusal message. */
  what: string;
  /** pg_advisory_xact_lock key: one constant per table, the same in every process. */
  lock: number;
}

export const METRIC_SERIES: SeriesTable = {
  table: "telemetry_metric_series",
  columns: ["namespace", "metric_name", "unit", "dimensions"],
  what: "metric series (namespace, metric name, unit and dimensions)",
  lock: 4_812_101,
};

export const WORKFLOW_SERIES: SeriesTable = {
  table: "telemetry_workflow_series",
  columns: ["workflow_type", "event"],
  what: "workflow series (workflow type and event)",
  lock: 4_812_102,
};

/** How long a count of the stored series is trusted to refuse a request without counting again. */
export const RECOUNT_AFTER_MS = 60_000;

export class SeriesCap {
  /**
   * Series stored when last counted. Other processes add series and the retention sweep removes
   * quiet ones, so it is trusted for RECOUNT_AFTER_MS only: within that, a request it rules out
   * is refused without counting the table again (an attacker's refused requests cost one count
   * a minute); after it, the table is counted again.
   */
  private atLeast = 0;
  private countedAt = -Infinity;

  constructor(
    private readonly series: SeriesTable,
    readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Run `write` (which stores rows of the series `keys`) unless it would pass the cap. */
  async write(db: Db, keys: string[][], write: (db: Db) => Promise<void>): Promise<void> {
    const wanted = [...new Map(keys.map((k) => [JSON.stringify(k), k])).values()];
    if ((await this.unknown(db, wanted)).length === 0) return write(db);
    const total = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [this.series.lock]);
      const fresh = (await this.unknown(tx, wanted)).length;
      if (fresh === 0) {
        await write(tx);
        return 0;
      }
      const recent = this.now() - this.countedAt < RECOUNT_AFTER_MS;
      if (recent && this.atLeast + fresh > this.max) this.refuse(fresh);
      this.atLeast = await this.count(tx);
      this.countedAt = this.now();
      if (this.atLeast + fresh > this.max) this.refuse(fresh);
      await write(tx);
      return this.atLeast + fresh;
    });
    this.atLeast = Math.max(this.atLeast, total);
  }

  private refuse(fresh: number): never {
    throw Errors.quotaExceeded(
      `Telemetry keeps at most ${this.max} ${this.series.what}; ${this.atLeast} are stored and this request would add ${fresh}. Nothing was stored; series already stored are still accepted.`,
    );
  }

  /** The keys not stored yet. */
  private async unknown(db: Db, keys: string[][]): Promise<string[][]> {
    if (keys.length === 0) return [];
    const { table, columns } = this.series;
    const params: string[] = [];
    const tuples = keys.map((k) => {
      const start = params.push(...k) - k.length;
      return `(${k.map((_, i) => `$${start + i + 1}`).join(", ")})`;
    });
    const cols = columns.join(", ");
    const rows = await db.query<Record<string, string>>(
      `SELECT ${cols} FROM ${table} WHERE (${cols}) IN (VALUES ${tuples.join(", ")})`,
      params,
    );
    const known = new Set(rows.map((r) => JSON.stringify(columns.map((c) => r[c]))));
    return keys.filter((k) => !known.has(JSON.stringify(k)));
  }

  private async count(db: Db): Promise<number> {
    const [row] = await db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM ${this.series.table}`,
    );
    return Number(row?.n ?? 0);
  }
}
