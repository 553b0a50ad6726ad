/**
 * The telemetry one chat may store a day (issue 57: one chat stored 46 MB in 17 s within its
 * batch limits, kept 7 days): at most ROWS_PER_CHAT_DAY rows and BYTES_PER_CHAT_DAY bytes (its
 * rows as stored JSON) each UTC day. A batch that would pass either is refused whole, 429 with
 * Retry-After until the day ends, and stores nothing. A workflow event's `data` (kept, never
 * read) is cut to WORKFLOW_DATA_PAIRS pairs of short keys and values.
 */
import { DAY_MS } from "../clock.js";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";

export const ROWS_PER_CHAT_DAY = 20_000;
export const BYTES_PER_CHAT_DAY = 2 * 1024 * 1024;
export const WORKFLOW_DATA_PAIRS = 20;
export const WORKFLOW_DATA_KEY_LENGTH = 64;
export const WORKFLOW_DATA_VALUE_LENGTH = 256;

/** A workflow event's data as kept: the first pairs, each key and value cut short. */
export function boundedData(
  data: readonly { key: string; value: string }[],
): { key: string; value: string }[] {
  return data.slice(0, WORKFLOW_DATA_PAIRS).map(({ key, value }) => ({
    key: key.slice(0, WORKFLOW_DATA_KEY_LENGTH),
    value: value.slice(0, WORKFLOW_DATA_VALUE_LENGTH),
  }));
}

/**
 * Counts `rows` of `bytes` against the chat's quota for the day of `nowMs`, or throws 429 (and
 * counts nothing) when they would pass it.
 */
export async function chargeTelemetry(
  db: Db,
  contactId: string,
  rows: number,
  bytes: number,
  nowMs: number,
  refused: () => void,
): Promise<void> {
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const charged = await db.query(
    `INSERT INTO telemetry_usage AS u (contact_id, day, rows, bytes)
     SELECT $1::text, $2::date, $3::int, $4::bigint WHERE $3::int <= $5::int AND $4::bigint <= $6::bigint
     ON CONFLICT (contact_id, day) DO UPDATE SET rows = u.rows + $3::int, bytes = u.bytes + $4::bigint
       WHERE u.rows + $3::int <= $5::int AND u.bytes + $4::bigint <= $6::bigint
     RETURNING u.rows`,
    [contactId, day, rows, bytes, ROWS_PER_CHAT_DAY, BYTES_PER_CHAT_DAY],
  );
  if (charged.length > 0) return;
  refused();
  const seconds = Math.ceil((DAY_MS - (nowMs % DAY_MS)) / 1000);
  throw Errors.throttling(
    `This chat's telemetry for today is full (at most ${ROWS_PER_CHAT_DAY} rows and ${BYTES_PER_CHAT_DAY} bytes a day). Try again in ${seconds} s.`,
    seconds,
  );
}

/** Usage rows of days before `cutoffMs` go (the retention sweep). */
export async function sweepUsage(db: Db, cutoffMs: number): Promise<void> {
  await db.query("DELETE FROM telemetry_usage WHERE day < $1::date", [
    new Date(cutoffMs).toISOString().slice(0, 10),
  ]);
}
