/** Contacts routed to the advisors: waiting in a queue, accepted by one advisor, ended. */
import type { Db } from "../store/db.js";

export type AgentContactStatus = "waiting" | "accepting" | "active" | "ended";

export interface AgentContact {
  contactId: string;
  queue: string;
  queuedAt: string;
  status: AgentContactStatus;
  advisorId: string | null;
  participantId: string | null;
  acceptedAt: string | null;
  /** When it last went back to its queue (requeueContact); null if never. */
  requeuedAt: string | null;
}

interface Row {
  contact_id: string;
  queue: string;
  queued_at: string | Date;
  status: string;
  advisor_id: string | null;
  participant_id: string | null;
  accepted_at: string | Date | null;
  requeued_at: string | Date | null;
}

const iso = (v: string | Date | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

const toAgentContact = (r: Row): AgentContact => ({
  contactId: r.contact_id,
  queue: r.queue,
  queuedAt: iso(r.queued_at)!,
  status: r.status as AgentContactStatus,
  advisorId: r.advisor_id,
  participantId: r.participant_id,
  acceptedAt: iso(r.accepted_at),
  requeuedAt: iso(r.requeued_at ?? null),
});

/** Put a contact in a queue; a contact already routed stays where it is. Returns whether it was added. */
export async function enqueue(
  db: Db,
  contactId: string,
  queue: string,
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO agent_contacts (contact_id, queue, queued_at, status) VALUES ($1, $2, $3, 'waiting')
     ON CONFLICT (contact_id) DO NOTHING RETURNING contact_id`,
    [contactId, queue, at],
  );
  return rows.length > 0;
}

export async function findAgentContact(db: Db, contactId: string): Promise<AgentContact | null> {
  const [row] = await db.query<Row>("SELECT * FROM agent_contacts WHERE contact_id = $1", [
    contactId,
  ]);
  return row ? toAgentContact(row) : null;
}

/** Waiting contacts, oldest first. */
export async function listWaiting(db: Db): Promise<AgentContact[]> {
  const rows = await db.query<Row>(
    "SELECT * FROM agent_contacts WHERE status = 'waiting' ORDER BY queued_at, contact_id",
  );
  return rows.map(toAgentContact);
}

/** The advisor's accepted chats still open, oldest accepted first. */
export async function listActive(db: Db, advisorId: string): Promise<AgentContact[]> {
  const rows = await db.query<Row>(
    "SELECT * FROM agent_contacts WHERE advisor_id = $1 AND status = 'active' ORDER BY accepted_at, contact_id",
    [advisorId],
  );
  return rows.map(toAgentContact);
}

/** The contacts an advisor holds or is taking right now: their advisor websockets follow these. */
export async function listFollowed(db: Db, advisorId: string): Promise<string[]> {
  const rows = await db.query<{ contact_id: string }>(
    "SELECT contact_id FROM agent_contacts WHERE advisor_id = $1 AND status IN ('accepting', 'active')",
    [advisorId],
  );
  return rows.map((r) => r.contact_id);
}

/** Chats the advisor holds or is taking right now (the concurrency limit counts these). */
export async function countHeld(db: Db, advisorId: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(
    "SELECT count(*) AS n FROM agent_contacts WHERE advisor_id = $1 AND status IN ('accepting', 'active')",
    [advisorId],
  );
  return Number(row?.n ?? 0);
}

/** Claim a waiting contact for an advisor; false when it is not waiting (any more). */
export async function claim(
  db: Db,
  contactId: string,
  advisorId: string,
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE agent_contacts SET status = 'accepting', advisor_id = $2, accepted_at = $3
     WHERE contact_id = $1 AND status = 'waiting' RETURNING contact_id`,
    [contactId, advisorId, at],
  );
  return rows.length > 0;
}

/**
 * The claimed contact's advisor participant has joined (its token is never stored here); false
 * when the claim was undone meanwhile (the chat went back to its queue).
 */
export async function activate(db: Db, contactId: string, participantId: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE agent_contacts SET status = 'active', participant_id = $2
     WHERE contact_id = $1 AND status = 'accepting' RETURNING contact_id`,
    [contactId, participantId],
  );
  return rows.length > 0;
}

/** A row as it was before `updateLocked` changed it. */
export interface BeforeRow {
  contact_id: string;
  advisor_id: string | null;
  participant_id: string | null;
}

/**
 * Sets `set` on the agent_contacts rows `which` selects, each locked first (so two changes of one
 * row run one after the other, the second seeing the first's result), and returns them as they
 * were before. `skipLocked`: rows another transaction is changing are left to it.
 */
export async function updateLocked(
  db: Db,
  set: string,
  which: string,
  values: unknown[],
  skipLocked = false,
): Promise<BeforeRow[]> {
  return db.query<BeforeRow>(
    `UPDATE agent_contacts a SET ${set}
     FROM (SELECT contact_id, advisor_id, participant_id FROM agent_contacts
           WHERE ${which} FOR UPDATE${skipLocked ? " SKIP LOCKED" : ""}) p
     WHERE a.contact_id = p.contact_id
     RETURNING p.contact_id, p.advisor_id, p.participant_id`,
    values,
  );
}

/**
 * A chat an advisor holds or is taking goes back to its queue, waiting, in its old place (its
 * queued_at kept): returns the advisor and participant it had; null when it was not held (by
 * `holder`, when given: a chat handed on meanwhile stays with its new advisor).
 */
export async function requeueContact(
  db: Db,
  contactId: string,
  at: string,
  holder?: string,
): Promise<{ advisorId: string | null; participantId: string | null } | null> {
  const [row] = await updateLocked(
    db,
    `status = 'waiting', advisor_id = NULL, participant_id = NULL, accepted_at = NULL,
     requeued_at = $2`,
    `contact_id = $1 AND status IN ('accepting', 'active')
     AND ($3::text IS NULL OR advisor_id = $3::text)`,
    [contactId, at, holder ?? null],
  );
  return row ? { advisorId: row.advisor_id, participantId: row.participant_id } : null;
}

/**
 * Claims no participant ever joined (claimed before `before`): the process taking them died, or
 * failed and could not undo them. Each goes back to waiting; returns them with their advisor.
 */
export async function releaseStaleClaims(
  db: Db,
  before: string,
): Promise<{ contactId: string; advisorId: string | null }[]> {
  const rows = await updateLocked(
    db,
    "status = 'waiting', advisor_id = NULL, accepted_at = NULL",
    "status = 'accepting' AND participant_id IS NULL AND accepted_at < $1",
    [before],
    true,
  );
  return rows.map((r) => ({ contactId: r.contact_id, advisorId: r.advisor_id }));
}

/** Undo a claim whose participant could not be added. */
export async function release(db: Db, contactId: string): Promise<void> {
  await db.query(
    `UPDATE agent_contacts SET status = 'waiting', advisor_id = NULL, accepted_at = NULL
     WHERE contact_id = $1 AND status = 'accepting'`,
    [contactId],
  );
}

/** The contact ended (or its advisor left): returns the advisor it was with, if any. */
export async function endAgentContact(
  db: Db,
  where: { contactId: string } | { participantId: string },
  at: string,
): Promise<{ advisorId: string | null; wasWaiting: boolean } | null> {
  const [column, value] =
    "contactId" in where
      ? ["contact_id", where.contactId]
      : ["participant_id", where.participantId];
  const [row] = await db.query<{ advisor_id: string | null; previous: string }>(
    `UPDATE agent_contacts a SET status = 'ended', ended_at = $2
     FROM (SELECT contact_id, status AS previous FROM agent_contacts WHERE ${column} = $1 AND status <> 'ended') p
     WHERE a.contact_id = p.contact_id RETURNING a.advisor_id, p.previous`,
    [value, at],
  );
  return row ? { advisorId: row.advisor_id, wasWaiting: row.previous === "waiting" } : null;
}

export async function queueLengths(
  db: Db,
): Promise<{ queue: string; waiting: number; active: number }[]> {
  const rows = await db.query<{ queue: string; waiting: string | number; active: string | number }>(
    `SELECT queue, count(*) FILTER (WHERE status = 'waiting') AS waiting,
            count(*) FILTER (WHERE status IN ('accepting', 'active')) AS active
     FROM agent_contacts GROUP BY queue ORDER BY queue`,
  );
  return rows.map((r) => ({
    queue: r.queue,
    waiting: Number(r.waiting),
    active: Number(r.active),
  }));
}
