/** Per-contact flow positions, changed with optimistic concurrency (version). */
import type { Db } from "../store/db.js";
import type { FlowPosition } from "./types.js";

export interface StoredPosition extends FlowPosition {
  contactId: string;
  flowId: string;
  botParticipantId: string | null;
  assistantParticipantId: string | null;
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
  version: number;
}

const toStored = (r: Row): StoredPosition => ({
  contactId: r.contact_id,
  flowId: r.flow_id,
  waitingIn: r.waiting_in,
  pendingEchoes: (typeof r.pending_echoes === "string"
    ? JSON.parse(r.pending_echoes)
    : r.pending_echoes) as string[],
  outcome: r.outcome as FlowPosition["outcome"],
  botParticipantId: r.bot_participant_id,
  assistantParticipantId: r.assistant_participant_id,
  version: Number(r.version),
});

/** Claim the start of a contact's flow: true for exactly one caller. */
export async function createPosition(
  db: Db,
  contactId: string,
  flowId: string,
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO flow_positions (contact_id, flow_id, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (contact_id) DO NOTHING RETURNING contact_id`,
    [contactId, flowId, at],
  );
  return rows.length > 0;
}

export async function findPosition(db: Db, contactId: string): Promise<StoredPosition | null> {
  const [row] = await db.query<Row>("SELECT * FROM flow_positions WHERE contact_id = $1", [
    contactId,
  ]);
  return row ? toStored(row) : null;
}

/** Save a new position if nobody changed it since `version`; false when someone did. */
export async function savePosition(
  db: Db,
  contactId: string,
  version: number,
  p: FlowPosition,
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE flow_positions SET waiting_in = $3, pending_echoes = $4::jsonb, outcome = $5, version = version + 1, updated_at = $6
     WHERE contact_id = $1 AND version = $2 RETURNING contact_id`,
    [contactId, version, p.waitingIn, JSON.stringify(p.pendingEchoes), p.outcome, at],
  );
  return rows.length > 0;
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
