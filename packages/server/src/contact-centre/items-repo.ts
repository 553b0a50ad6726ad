import type { Item } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";
import {
  recordingNewQuery,
  recordingParams,
  recordingQuery,
  type KeyedItem,
} from "./idempotency-repo.js";

/** New items of one contact, numbered after `lastSeq`. */
export interface Append {
  contactId: string;
  lastSeq: number;
  items: Item[];
}

/**
 * Append each contact's items after its `lastSeq` (the caller holds the contacts' row locks):
 * the rows of every contact and their new last seqs in one statement, whatever their number,
 * with, when given, the ClientTokens `recorded` for them (SendMessage's, see recordingQuery).
 * Returns how many of those were recorded: fewer than given when a key was recorded before.
 */
export async function appendItems(
  tx: Db,
  appends: readonly Append[],
  recording?: { recorded: readonly KeyedItem[]; at: string },
): Promise<number> {
  const { items, contacts } = appendedRows(appends);
  if (contacts[0]!.length === 0) return 0;
  const records = recording?.recorded.length ? recording : null;
  const updating = `UPDATE contacts c SET last_seq = v.last_seq, last_item_at = v.last_item_at
     FROM unnest($4::text[], $5::int[], $6::timestamptz[]) AS v(contact_id, last_seq, last_item_at)
     WHERE c.contact_id = v.contact_id`;
  if (!records) {
    await tx.query(`WITH inserted AS (${insertingItems(1)}) ${updating}`, [...items, ...contacts]);
    return 0;
  }
  const [row] = await tx.query<{ recorded: number }>(
    `WITH inserted AS (${insertingItems(1)}), ${recordingQuery(7)}, updated AS (${updating})
     SELECT count(*)::int AS recorded FROM recorded`,
    [...items, ...contacts, ...recordingParams(records.recorded, records.at)],
  );
  return row!.recorded;
}

/** New items of one contact whose row was read at `version` (see readSenders). */
export interface VersionedAppend extends Append {
  version: string;
}

/** A ClientToken recorded with its contact's items (see appendItemsIfUnchanged). */
export interface ContactKeyedItem extends KeyedItem {
  contactId: string;
}

/**
 * appendItems without a lock or a transaction, in one statement: each contact's items are
 * appended, and its ClientTokens recorded, only when the contact's row is still at the
 * `version` read (its xmin: any change since, by this process or another, made a new row
 * version, and a change under way is waited for). A ClientToken recorded before fails the
 * whole statement: nothing is written. Returns the contacts written, each with its row's new
 * version; the others are unchanged.
 */
export async function appendItemsIfUnchanged(
  db: Db,
  appends: readonly VersionedAppend[],
  recording: { recorded: readonly ContactKeyedItem[]; at: string },
): Promise<Map<string, string>> {
  const written = appends.filter((a) => a.items.length > 0);
  if (written.length === 0) return new Map();
  const { items, contacts } = appendedRows(written);
  const { recorded, at } = recording;
  const recordingParts = recorded.length
    ? {
        sql: `, ${recordingNewQuery(8, "updated")}`,
        params: [...recordingParams(recorded, at), recorded.map((r) => r.contactId)],
      }
    : { sql: "", params: [] };
  const rows = await db.query<{ contact_id: string; version: string }>(
    `WITH updated AS (
       UPDATE contacts c SET last_seq = v.last_seq, last_item_at = v.last_item_at
       FROM unnest($4::text[], $5::int[], $6::timestamptz[], $7::xid[])
         AS v(contact_id, last_seq, last_item_at, version)
       WHERE c.contact_id = v.contact_id AND c.xmin = v.version
       RETURNING c.contact_id, c.xmin::text AS version
     ), inserted AS (
       ${insertingItems(1)} WHERE v.contact_id IN (SELECT contact_id FROM updated)
     )${recordingParts.sql}
     SELECT contact_id, version FROM updated`,
    [...items, ...contacts, written.map((a) => a.version), ...recordingParts.params],
  );
  return new Map(rows.map((r) => [r.contact_id, r.version]));
}

/**
 * An INSERT of items, its three parameters numbered from `$first`: appendedRows' `items`. The
 * items travel as one JSON array (one JSON.stringify), not as an array of jsonb whose every
 * element the driver quotes and escapes and PostgreSQL unescapes; each row's Id and time are read
 * from its item.
 */
export function insertingItems(first: number): string {
  const $ = (n: number) => `$${first + n}`;
  return `INSERT INTO items (contact_id, seq, item_id, absolute_time, item)
     SELECT contact_id, seq, item ->> 'Id', (item ->> 'AbsoluteTime')::timestamptz, item
     FROM ROWS FROM (unnest(${$(0)}::text[]), unnest(${$(1)}::int[]), jsonb_array_elements(${$(2)}::jsonb))
       AS v(contact_id, seq, item)`;
}

/**
 * The parameters of `appends`: `items` for insertingItems (contact_id, seq, and the items as one
 * JSON array) and, per contact with items, `contacts` (contact_id, last_seq, last_item_at).
 */
export function appendedRows(appends: readonly Append[]): {
  items: unknown[];
  contacts: unknown[][];
} {
  const contactIds: string[] = [];
  const seqs: number[] = [];
  const all: Item[] = [];
  const contacts: unknown[][] = [[], [], []];
  for (const { contactId, lastSeq, items: added } of appends) {
    const last = added.at(-1);
    if (!last) continue;
    added.forEach((item, i) => {
      contactIds.push(contactId);
      seqs.push(lastSeq + i + 1);
      all.push(item);
    });
    [contactId, lastSeq + added.length, last.AbsoluteTime].forEach((value, column) =>
      contacts[column]!.push(value),
    );
  }
  return { items: [contactIds, seqs, JSON.stringify(all)], contacts };
}

export async function findItem(db: Db, contactId: string, itemId: string): Promise<Item | null> {
  const [row] = await db.query<{ item: Item }>(
    "SELECT item FROM items WHERE contact_id = $1 AND item_id = $2",
    [contactId, itemId],
  );
  return row?.item ?? null;
}

/** The items of these contacts under these Ids, by `${contactId} ${itemId}`. */
export async function findItems(
  db: Db,
  wanted: readonly { contactId: string; itemId: string }[],
): Promise<Map<string, Item>> {
  if (wanted.length === 0) return new Map();
  const rows = await db.query<{ contact_id: string; item: Item }>(
    `SELECT contact_id, item FROM items
     WHERE (contact_id, item_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [wanted.map((w) => w.contactId), wanted.map((w) => w.itemId)],
  );
  return new Map(rows.map((r) => [`${r.contact_id} ${r.item.Id}`, r.item]));
}

/** The seqs of these items of one contact, by Id. */
export async function findItemSeqs(
  db: Db,
  contactId: string,
  itemIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db.query<{ item_id: string; seq: number }>(
    "SELECT item_id, seq FROM items WHERE contact_id = $1 AND item_id = ANY($2::text[])",
    [contactId, itemIds],
  );
  return new Map(rows.map((r) => [r.item_id, r.seq]));
}

export async function findItemSeq(
  db: Db,
  contactId: string,
  itemId: string,
): Promise<number | null> {
  const [row] = await db.query<{ seq: number }>(
    "SELECT seq FROM items WHERE contact_id = $1 AND item_id = $2",
    [contactId, itemId],
  );
  return row?.seq ?? null;
}

/** FORWARD: first item at or after the time; BACKWARD: last item at or before it. */
export async function findSeqByTime(
  db: Db,
  contactId: string,
  at: string,
  direction: "FORWARD" | "BACKWARD",
): Promise<number | null> {
  const sql =
    direction === "FORWARD"
      ? "SELECT min(seq) AS seq FROM items WHERE contact_id = $1 AND absolute_time >= $2"
      : "SELECT max(seq) AS seq FROM items WHERE contact_id = $1 AND absolute_time <= $2";
  const [row] = await db.query<{ seq: number | null }>(sql, [contactId, at]);
  return row?.seq ?? null;
}

/** The seq of the Nth most recent item (1 = newest), or the oldest when there are fewer. */
export async function findSeqByRecency(
  db: Db,
  contactId: string,
  mostRecent: number,
): Promise<number | null> {
  const [row] = await db.query<{ seq: number }>(
    "SELECT seq FROM items WHERE contact_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1",
    [contactId, Math.max(mostRecent - 1, 0)],
  );
  if (row) return row.seq;
  const [oldest] = await db.query<{ seq: number | null }>(
    "SELECT min(seq) AS seq FROM items WHERE contact_id = $1",
    [contactId],
  );
  return oldest?.seq ?? null;
}

export interface PageRequest {
  contactId: string;
  direction: "FORWARD" | "BACKWARD";
  /** Where the scan starts; absent = the newest (BACKWARD) or oldest (FORWARD) item. */
  from?: { seq: number; inclusive: boolean };
  limit: number;
}

/** Items in scan order, up to `limit`. */
export async function readPage(db: Db, req: PageRequest): Promise<{ seq: number; item: Item }[]> {
  const forward = req.direction === "FORWARD";
  const params: unknown[] = [req.contactId, req.limit];
  let bound = "";
  if (req.from) {
    params.push(req.from.seq);
    const op = forward ? (req.from.inclusive ? ">=" : ">") : req.from.inclusive ? "<=" : "<";
    bound = `AND seq ${op} $3`;
  }
  return db.query<{ seq: number; item: Item }>(
    `SELECT seq, item FROM items WHERE contact_id = $1 ${bound}
     ORDER BY seq ${forward ? "ASC" : "DESC"} LIMIT $2`,
    params,
  );
}

/** The receipt (MESSAGEMETADATA) items of a contact that acknowledge any of `messageIds`, oldest first. */
export async function findReceiptItems(
  db: Db,
  contactId: string,
  messageIds: readonly string[],
): Promise<Item[]> {
  if (messageIds.length === 0) return [];
  const rows = await db.query<{ item: Item }>(
    `SELECT item FROM items
     WHERE contact_id = $1 AND item ->> 'Type' = 'MESSAGEMETADATA'
       AND (item -> 'MessageMetadata') ->> 'MessageId' IN (SELECT jsonb_array_elements_text($2::jsonb))
     ORDER BY seq`,
    [contactId, JSON.stringify(messageIds)],
  );
  return rows.map((r) => r.item);
}
