import type { Item } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";
import { hashRequest } from "./tokens.js";

/** How long a ClientToken is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyKey {
  participantId: string;
  operation: string;
  clientToken: string;
  requestHash: string;
}

/**
 * Deletes the records older than the window before `now` (the expiry sweeper's, now and then:
 * lookups ignore them anyway, so no request pays for the sweep).
 */
export async function sweepIdempotency(db: Db, now: string): Promise<void> {
  await db.query("DELETE FROM idempotency WHERE created_at <= $1", [windowStart(now)]);
}

/** The response recorded for this key within the window before `now`, or null. */
export async function findResponse<T>(db: Db, key: IdempotencyKey, now: string): Promise<T | null> {
  const [row] = await db.query<{ response: T }>(
    `SELECT response FROM idempotency
     WHERE participant_id = $1 AND operation = $2 AND client_token = $3 AND request_hash = $4
       AND created_at > $5`,
    [key.participantId, key.operation, key.clientToken, key.requestHash, windowStart(now)],
  );
  return row ? row.response : null;
}

/**
 * A record for the same key that is still in its window stays (the first response wins); one out
 * of its window, not yet swept, is replaced.
 */
const REPLACING_EXPIRED = `ON CONFLICT (participant_id, operation, client_token, request_hash)
  DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
  WHERE idempotency.created_at <= EXCLUDED.created_at - make_interval(secs => ${IDEMPOTENCY_WINDOW_MS / 1000})`;

/** Record a response. */
export async function recordResponse(
  db: Db,
  key: IdempotencyKey,
  response: unknown,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO idempotency (participant_id, operation, client_token, request_hash, response, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) ${REPLACING_EXPIRED}`,
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

/** A key and what its request committed. */
export interface KeyedItem {
  key: IdempotencyKey;
  item: Item;
}

/**
 * The items recorded within the window before `now` under any of `keys` (SendMessage's
 * responses, which hold the item's Id), by position in `keys`. A record whose item is gone
 * counts as no record.
 */
export async function findRecordedItems(
  db: Db,
  keys: readonly IdempotencyKey[],
  now: string,
): Promise<Map<number, Item>> {
  if (keys.length === 0) return new Map();
  const columns = keyColumns(keys);
  const rows = await db.query<{ n: number; item: Item }>(
    `SELECT k.n::int AS n, it.item
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       WITH ORDINALITY AS k(participant_id, operation, client_token, request_hash, n)
     JOIN idempotency i USING (participant_id, operation, client_token, request_hash)
     JOIN items it ON it.item_id = i.response ->> 'Id'
     WHERE i.created_at > $5`,
    [...columns, windowStart(now)],
  );
  return new Map(rows.map((r) => [Number(r.n) - 1, r.item]));
}

/**
 * A data-modifying WITH query `recorded` that records each key's item Id as its response (in
 * the statement appending the items, so a batch of messages is one statement), its parameters
 * numbered from `$first`: see recordingParams. It returns a row per key recorded: none for a key
 * already recorded within its window (the first response stays).
 */
export function recordingQuery(first: number): string {
  const $ = (n: number) => `$${first + n}`;
  return `recorded AS (
     INSERT INTO idempotency (participant_id, operation, client_token, request_hash, response, created_at)
     SELECT a, b, c, d, jsonb_build_object('Id', id), ${$(5)}::timestamptz
     FROM unnest(${$(0)}::text[], ${$(1)}::text[], ${$(2)}::text[], ${$(3)}::text[], ${$(4)}::text[]) AS k(a, b, c, d, id)
     ${REPLACING_EXPIRED}
     RETURNING 1
   )`;
}

/**
 * A data-modifying WITH query `recorded` as recordingQuery's, for a statement that writes only
 * some contacts' items: it records the keys of the contacts that `written` (a query's name)
 * returns, each key a plain insert, so a key recorded before, even out of its window, fails the
 * whole statement. Parameters numbered from `$first`: see recordingParams, then the keys'
 * contacts.
 */
export function recordingNewQuery(first: number, written: string): string {
  const $ = (n: number) => `$${first + n}`;
  return `recorded AS (
     INSERT INTO idempotency (participant_id, operation, client_token, request_hash, response, created_at)
     SELECT a, b, c, d, jsonb_build_object('Id', id), ${$(5)}::timestamptz
     FROM unnest(${$(0)}::text[], ${$(1)}::text[], ${$(2)}::text[], ${$(3)}::text[], ${$(4)}::text[], ${$(6)}::text[])
       AS k(a, b, c, d, id, contact_id)
     WHERE k.contact_id IN (SELECT contact_id FROM ${written})
   )`;
}

/** recordingQuery's parameters: the keys' columns, their items' Ids, when. */
export function recordingParams(recorded: readonly KeyedItem[], at: string): unknown[] {
  return [...keyColumns(recorded.map((r) => r.key)), recorded.map((r) => r.item.Id), at];
}

function keyColumns(keys: readonly IdempotencyKey[]): string[][] {
  return [
    keys.map((k) => k.participantId),
    keys.map((k) => k.operation),
    keys.map((k) => k.clientToken),
    keys.map((k) => k.requestHash),
  ];
}

function windowStart(now: string): string {
  return new Date(Date.parse(now) - IDEMPOTENCY_WINDOW_MS).toISOString();
}

/** The key a ClientToken is remembered under, or null without one. */
export function idempotencyKey(
  participantId: string,
  operation: string,
  clientToken: string | undefined,
  request: unknown[],
): IdempotencyKey | null {
  return clientToken
    ? { participantId, operation, clientToken, requestHash: hashRequest(request) }
    : null;
}
