/**
 * Per-contact flow positions, changed with optimistic concurrency (version). Each step is
 * saved together with the effects it decided (`pendingEffects`), which stay there until they
 * have been performed: a step cut short by a crash or a restart is performed again, not lost.
 */
import type { Db } from "../store/db.js";
import type { FlowEffect, FlowPosition } from "./types.js";

/** An effect still to perform; `key` (`<version>.<index>`) is unique per contact. */
export interface PendingEffect {
  key: string;
  effect: FlowEffect;
}

export interface StoredPosition extends FlowPosition {
  contactId: string;
  flowId: string;
  botParticipantId: string | null;
  assistantParticipantId: string | null;
  /** Effects of saved steps not performed yet, oldest first. */
  pendingEffects: PendingEffect[];
  version: number;
}

interface Row {
  contact_id: string;
  flow_id: string;
  waiting_in: string | null;
  pending_echoes: unknown;
  outcome: string | null;
  bot_participant_id: string | null;
  assistant_participant_id: string | null;
  pending_effects: unknown;
  version: number;
}

const json = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

const toStored = (r: Row): StoredPosition => ({
  contactId: r.contact_id,
  flowId: r.flow_id,
  waitingIn: r.waiting_in,
  pendingEchoes: json<string[]>(r.pending_echoes),
  outcome: r.outcome as FlowPosition["outcome"],
  botParticipantId: r.bot_participant_id,
  assistantParticipantId: r.assistant_participant_id,
  pendingEffects: json<PendingEffect[]>(r.pending_effects),
  version: Number(r.version),
});

const keyed = (version: number, effects: FlowEffect[]): PendingEffect[] =>
  effects.map((effect, i) => ({ key: `${version}.${i}`, effect }));

/** The first effects of a flow that its chat's opening performed, and who said them. */
export interface Opened {
  performed: number;
  assistantParticipantId: string;
}

/** A contact's first position, as createPositions writes it. */
export interface NewPosition {
  contactId: string;
  flowId: string;
  position: FlowPosition;
  effects: FlowEffect[];
  at: string;
  /** Its first effects were performed with the chat (ChatOpening): only the others are pending. */
  opened?: Opened;
}

/**
 * Positions inserted from `$first` (positionsParam): each contact that had none gets its own
 * (a contact that had one keeps it). A statement of its own (createPositions), or a part of the
 * chats' statement (the flow's ChatOpening).
 */
export function insertingPositions(first: number): string {
  return `INSERT INTO flow_positions (contact_id, flow_id, waiting_in, pending_echoes, outcome,
       pending_effects, updated_at, assistant_participant_id)
     SELECT contact_id, flow_id, waiting_in, pending_echoes, outcome, pending_effects,
       updated_at, assistant_participant_id
     FROM jsonb_to_recordset($${first}::jsonb) AS p(contact_id text, flow_id text,
       waiting_in text, pending_echoes jsonb, outcome text, pending_effects jsonb,
       updated_at timestamptz, assistant_participant_id text)
     ON CONFLICT (contact_id) DO NOTHING`;
}

/** insertingPositions' one parameter: the positions as one JSON array. */
export function positionsParam(positions: readonly NewPosition[]): string {
  return JSON.stringify(
    positions.map(({ contactId, flowId, position, effects, at, opened }) => ({
      contact_id: contactId,
      flow_id: flowId,
      waiting_in: position.waitingIn,
      pending_echoes: position.pendingEchoes,
      outcome: position.outcome,
      pending_effects: keyed(0, effects).slice(opened?.performed ?? 0),
      updated_at: at,
      assistant_participant_id: opened?.assistantParticipantId ?? null,
    })),
  );
}

/**
 * Start contacts' flows, each with its first step, position and effects, in one statement: the
 * stored positions of those that had none (a contact that had one keeps it and is left out).
 */
export async function createPositions(
  db: Db,
  positions: readonly NewPosition[],
): Promise<StoredPosition[]> {
  if (positions.length === 0) return [];
  const rows = await db.query<Row>(`${insertingPositions(1)} RETURNING *`, [
    positionsParam(positions),
  ]);
  return rows.map(toStored);
}

/**
 * Start a contact's flow with its first step, position and effects in one write: the stored
 * position for exactly one caller, null for the others.
 */
export async function createPosition(
  db: Db,
  position: NewPosition,
): Promise<StoredPosition | null> {
  const [stored] = await createPositions(db, [position]);
  return stored ?? null;
}

export async function findPosition(db: Db, contactId: string): Promise<StoredPosition | null> {
  const [row] = await db.query<Row>("SELECT * FROM flow_positions WHERE contact_id = $1", [
    contactId,
  ]);
  return row ? toStored(row) : null;
}

/** The positions of any of `contactIds`, by contact. */
export async function findPositions(
  db: Db,
  contactIds: readonly string[],
): Promise<Map<string, StoredPosition>> {
  const rows = await db.query<Row>(
    "SELECT * FROM flow_positions WHERE contact_id = ANY($1::text[])",
    [contactIds],
  );
  return new Map(rows.map((row) => [row.contact_id, toStored(row)]));
}

/** Pending effects without those whose keys are in the JSON array parameter `$n`. */
const without = (n: number): string =>
  `COALESCE(
     (SELECT jsonb_agg(e ORDER BY i) FROM jsonb_array_elements(pending_effects) WITH ORDINALITY AS x (e, i)
      WHERE NOT ($${n}::jsonb ? (e ->> 'key'))),
     '[]'::jsonb)`;

/**
 * Save the next step (its position, its effects after those still pending) if nobody changed
 * the position since `version`: the stored position, or null when someone did. The effects
 * `performed` are no longer pending, in the same write (a hand-over replaces the answer that
 * decided it, so that a crash loses neither).
 */
export async function saveStep(
  db: Db,
  contactId: string,
  version: number,
  p: FlowPosition,
  effects: FlowEffect[],
  at: string,
  performed: string[] = [],
): Promise<StoredPosition | null> {
  const [row] = await db.query<Row>(
    `UPDATE flow_positions SET waiting_in = $3, pending_echoes = $4::jsonb, outcome = $5,
       pending_effects = ${without(8)} || $6::jsonb, version = version + 1, updated_at = $7
     WHERE contact_id = $1 AND version = $2 RETURNING *`,
    [
      contactId,
      version,
      p.waitingIn,
      JSON.stringify(p.pendingEchoes),
      p.outcome,
      JSON.stringify(keyed(version + 1, effects)),
      at,
      JSON.stringify(performed),
    ],
  );
  return row ? toStored(row) : null;
}

/** These effects have been performed: no longer pending. */
export async function removeEffects(
  db: Db,
  contactId: string,
  keys: string[],
  at: string,
): Promise<void> {
  await db.query(
    `UPDATE flow_positions SET version = version + 1, updated_at = $3,
       pending_effects = ${without(2)}
     WHERE contact_id = $1`,
    [contactId, JSON.stringify(keys), at],
  );
}

/** Positions with effects still to perform, oldest change first. */
export async function listPending(db: Db): Promise<StoredPosition[]> {
  const rows = await db.query<Row>(
    "SELECT * FROM flow_positions WHERE pending_effects <> '[]'::jsonb ORDER BY updated_at, contact_id",
  );
  return rows.map(toStored);
}

export async function saveParticipant(
  db: Db,
  contactId: string,
  voice: "bot" | "assistant",
  participantId: string,
): Promise<void> {
  const column = voice === "bot" ? "bot_participant_id" : "assistant_participant_id";
  await db.query(`UPDATE flow_positions SET ${column} = $2 WHERE contact_id = $1`, [
    contactId,
    participantId,
  ]);
}
