import type { Db } from "../store/db.js";
import {
  toContact,
  toIsoOrNull,
  toParticipant,
  toParticipantRecord,
  type ContactRow,
  type ParticipantRecord,
  type ParticipantRow,
} from "./rows.js";
import type { Contact, Participant, Role } from "./types.js";

export interface NewParticipantRow {
  participantId: string;
  contactId: string;
  role: Role;
  displayName: string;
  tokenHash: string;
  createdAt: string;
}

/** Inserts the participant; false when one with its id exists already (nothing written). */
export async function insertParticipant(db: Db, p: NewParticipantRow): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO participants (participant_id, contact_id, role, display_name, token_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (participant_id) DO NOTHING RETURNING 1`,
    [p.participantId, p.contactId, p.role, p.displayName, p.tokenHash, p.createdAt],
  );
  return rows.length === 1;
}

export async function listParticipants(db: Db, contactId: string): Promise<ParticipantRecord[]> {
  const rows = await db.query<ParticipantRow>(
    "SELECT * FROM participants WHERE contact_id = $1 ORDER BY created_at, participant_id",
    [contactId],
  );
  return rows.map(toParticipantRecord);
}

export async function findParticipant(
  db: Db,
  participantId: string,
): Promise<ParticipantRecord | null> {
  const [row] = await db.query<ParticipantRow>(
    "SELECT * FROM participants WHERE participant_id = $1",
    [participantId],
  );
  return row ? toParticipantRecord(row) : null;
}

export async function markLeft(db: Db, participantId: string, at: string): Promise<void> {
  await db.query(
    "UPDATE participants SET left_at = COALESCE(left_at, $2) WHERE participant_id = $1",
    [participantId, at],
  );
}

export async function markConnectedAt(db: Db, participantId: string, at: string): Promise<void> {
  await db.query(
    "UPDATE participants SET connected_at = COALESCE(connected_at, $2) WHERE participant_id = $1",
    [participantId, at],
  );
}

/** A new token's hash and until when it is valid. */
export interface NewToken {
  hash: string;
  expiresAt: string;
}

export interface ConnectionWrite {
  participantId: string;
  contactId: string;
  at: string;
  websocket: NewToken | null;
  credentials: NewToken | null;
  /** Mark the participant connected at `at` (if it was not yet). */
  connected: boolean;
  /** Mark its first connection at `at` (if it had none yet). */
  first: boolean;
}

/**
 * grantConnections' statement. Its contacts are found from the participants' keys, and their
 * status checked once locked (the row as locked): with the status in the join, a planner without
 * statistics read every active contact through the partial expiry index (tested).
 */
export const GRANT_CONNECTIONS = `WITH request AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[],
      $6::timestamptz[], $7::timestamptz[], $8::boolean[], $9::boolean[])
    WITH ORDINALITY AS r(participant_id, contact_id, websocket_hash, websocket_expires_at,
      credentials_hash, credentials_expires_at, at, connected, first, n)
  ), locked AS MATERIALIZED (
    SELECT p.participant_id, p.contact_id, c.status FROM participants p
    JOIN contacts c ON c.contact_id = p.contact_id
    WHERE p.participant_id = ANY($1::text[]) AND p.left_at IS NULL
    ORDER BY c.contact_id
    FOR UPDATE OF c
  ), caller AS (
    SELECT r.* FROM request r
    JOIN locked l ON l.participant_id = r.participant_id AND l.contact_id = r.contact_id
    WHERE l.status = 'active'
  ), websocket AS (
    INSERT INTO websocket_tokens (token_hash, participant_id, expires_at)
    SELECT websocket_hash, participant_id, websocket_expires_at FROM caller
    WHERE websocket_hash IS NOT NULL
  ), credentials AS (
    INSERT INTO connection_tokens (token_hash, participant_id, expires_at)
    SELECT credentials_hash, participant_id, credentials_expires_at FROM caller
    WHERE credentials_hash IS NOT NULL
  ), marks AS (
    SELECT participant_id, min(at) FILTER (WHERE connected) AS connected_at,
      min(at) FILTER (WHERE first) AS first_at
    FROM caller GROUP BY participant_id
  ), marked AS (
    UPDATE participants p SET
      connected_at = COALESCE(p.connected_at, m.connected_at),
      first_connection_at = COALESCE(p.first_connection_at, m.first_at)
    FROM marks m
    WHERE p.participant_id = m.participant_id
      AND (m.connected_at IS NOT NULL OR m.first_at IS NOT NULL)
  )
  SELECT n FROM caller`;

/**
 * CreateParticipantConnection's writes of many requests in ONE statement, under their contacts'
 * row locks (taken in contact order, as a message batch takes them, so the two cannot deadlock):
 * each request's new websocket and connection tokens and its connected marks, only while its
 * participant is in that contact, has not left and the chat is active. Answers, for each request
 * in order, whether it was granted (false: nothing of it written).
 */
export async function grantConnections(
  db: Db,
  writes: readonly ConnectionWrite[],
): Promise<boolean[]> {
  const column = <V>(value: (w: ConnectionWrite) => V) => writes.map(value);
  const rows = await db.query<{ n: string | number }>(GRANT_CONNECTIONS, [
    column((w) => w.participantId),
    column((w) => w.contactId),
    column((w) => w.websocket?.hash ?? null),
    column((w) => w.websocket?.expiresAt ?? null),
    column((w) => w.credentials?.hash ?? null),
    column((w) => w.credentials?.expiresAt ?? null),
    column((w) => w.at),
    column((w) => w.connected),
    column((w) => w.first),
  ]);
  const granted = new Set(rows.map((row) => Number(row.n)));
  return writes.map((_, i) => granted.has(i + 1));
}

export type TokenTable = "connection_tokens" | "websocket_tokens";

/** Deletes the tokens of `table` expired by `now`. */
export async function sweepTokens(db: Db, table: TokenTable, now: string): Promise<void> {
  await db.query(`DELETE FROM ${table} WHERE expires_at <= $1`, [now]);
}

/** A participant and its contact, read in one statement. */
export interface ParticipantWithContact {
  participant: ParticipantRecord;
  contact: Contact;
}

/** A caller found by a token, and until when that token is valid (null: a participant token). */
export interface TokenCaller extends ParticipantWithContact {
  tokenExpiresAt: string | null;
}

type SenderRow = Omit<ParticipantRow, "created_at" | "first_connection_at"> &
  Omit<ContactRow, "created_at"> & { contact_created_at: unknown };

type CallerRow = ParticipantRow &
  Omit<ContactRow, "created_at"> & { contact_created_at: unknown; token_expires_at?: unknown };

const CALLER_COLUMNS = `p.*, c.initial_contact_id, c.instance_id, c.contact_flow_id, c.status,
  c.attributes, c.supported_content_types, c.created_at AS contact_created_at, c.ended_at,
  c.last_seq, c.last_item_at`;

function toCaller(row: CallerRow | undefined): ParticipantWithContact | null {
  if (!row) return null;
  return {
    participant: toParticipantRecord(row),
    contact: toContact({ ...row, created_at: row.contact_created_at }),
  };
}

/**
 * The participant (and its contact) a token reaches: its participant token when `table` is
 * null, else a still valid token of that table.
 */
export async function findCallerByToken(
  db: Db,
  table: TokenTable | null,
  tokenHash: string,
  now: string,
): Promise<TokenCaller | null> {
  const [row] =
    table === null
      ? await db.query<CallerRow>(
          `SELECT ${CALLER_COLUMNS} FROM participants p
           JOIN contacts c ON c.contact_id = p.contact_id WHERE p.token_hash = $1`,
          [tokenHash],
        )
      : await db.query<CallerRow>(
          `SELECT ${CALLER_COLUMNS}, t.expires_at AS token_expires_at FROM ${table} t
           JOIN participants p ON p.participant_id = t.participant_id
           JOIN contacts c ON c.contact_id = p.contact_id
           WHERE t.token_hash = $1 AND t.expires_at > $2`,
          [tokenHash, now],
        );
  const caller = toCaller(row);
  return caller && { ...caller, tokenExpiresAt: toIsoOrNull(row?.token_expires_at) };
}

/** A sender, its contact and where the contact's transcript ends. */
export interface LockedSender {
  participant: Participant;
  contact: Contact;
  lastSeq: number;
  lastItemAt: string | null;
  /** The contact row's version as read (its xmin): see appendItemsIfUnchanged. */
  version: string;
}

/**
 * What a batch reads of each sender: the participant without its bookkeeping (token hash,
 * created and first-connection times: a third of the row, each field copied and decoded in
 * PGlite's JavaScript), its contact whole, where its transcript ends, and the contact row's
 * version.
 */
const SENDER_COLUMNS = `p.participant_id, p.contact_id, p.role, p.display_name, p.connected_at,
  p.left_at, c.initial_contact_id, c.instance_id, c.contact_flow_id, c.status, c.attributes,
  c.supported_content_types, c.created_at AS contact_created_at, c.ended_at, c.last_seq,
  c.last_item_at, c.xmin::text AS version`;

/**
 * The participants of `participantIds` that exist, each with its contact, whose rows stay locked
 * for the rest of the transaction (in contact order, so two batches locking the same contacts
 * cannot deadlock).
 */
export function lockSenders(
  tx: Db,
  participantIds: readonly string[],
): Promise<Map<string, LockedSender>> {
  return selectSenders(tx, participantIds, "ORDER BY c.contact_id FOR UPDATE OF c");
}

/**
 * The same as lockSenders, without a lock: what a batch written with appendItemsIfUnchanged
 * reads, each contact with the version its write checks.
 */
export function readSenders(
  db: Db,
  participantIds: readonly string[],
): Promise<Map<string, LockedSender>> {
  return selectSenders(db, participantIds, "");
}

async function selectSenders(
  db: Db,
  participantIds: readonly string[],
  locking: string,
): Promise<Map<string, LockedSender>> {
  const rows = await db.query<SenderRow & { version: string }>(
    `SELECT ${SENDER_COLUMNS} FROM participants p
     JOIN contacts c ON c.contact_id = p.contact_id
     WHERE p.participant_id = ANY($1::text[]) ${locking}`,
    [participantIds],
  );
  return new Map(
    rows.map((row) => [
      row.participant_id,
      {
        participant: toParticipant(row),
        contact: toContact({ ...row, created_at: row.contact_created_at }),
        lastSeq: row.last_seq,
        lastItemAt: toIsoOrNull(row.last_item_at),
        version: row.version,
      },
    ]),
  );
}
