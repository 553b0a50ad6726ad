import type { Db } from "../store/db.js";

/** How long a ClientToken is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyKey {
  participantId: string;
  operation: string;
  clientToken: string;
  requestHash: string;
}

/**
 * The response recorded for this key within the window before `now`, or null. Records older
 * than the window are swept in the same statement (a lookup always precedes a record).
 */
export async function findResponse<T>(db: Db, key: IdempotencyKey, now: string): Promise<T | null> {
  const [row] = await db.query<{ response: T }>(
    `WITH swept AS (DELETE FROM idempotency WHERE created_at <= $5)
     SELECT response FROM idempotency
     WHERE participant_id = $1 AND operation = $2 AND client_token = $3 AND request_hash = $4
       AND created_at > $5`,
    [
      key.participantId,
      key.operation,
      key.clientToken,
      key.requestHash,
      new Date(Date.parse(now) - IDEMPOTENCY_WINDOW_MS).toISOString(),
    ],
  );
  return row ? row.response : null;
}

/** Record a response (after `findResponse` swept the expired records). */
export async function recordResponse(
  db: Db,
  key: IdempotencyKey,
  response: unknown,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO idempotency (participant_id, operation, client_token, request_hash, response, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT DO NOTHING`,
    [
      key.participantId,
      key.operation,
      key.clientToken,
      key.requestHash,
      JSON.stringify(response),
      at,
    ],
  );
}
