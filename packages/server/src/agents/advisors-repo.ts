/** Advisors and their sign-in sessions (bearer tokens stored only as their SHA-256). */
import type { Advisor, AdvisorAvailability } from "@chat-widget/protocol";
import { hashToken } from "../contact-centre/tokens.js";
import type { Db } from "../store/db.js";

export interface AdvisorRecord extends Advisor {
  passwordHash: string;
}

interface AdvisorRow {
  advisor_id: string;
  username: string;
  display_name: string;
  password_hash: string;
  availability: string;
  max_chats: number;
}

const toAdvisor = (r: AdvisorRow): AdvisorRecord => ({
  AdvisorId: r.advisor_id,
  Username: r.username,
  Name: r.display_name,
  Availability: r.availability === "Available" ? "Available" : "Offline",
  MaxConcurrentChats: Number(r.max_chats),
  passwordHash: r.password_hash,
});

export const publicAdvisor = ({ passwordHash: _hash, ...advisor }: AdvisorRecord): Advisor =>
  advisor;

export async function findAdvisorByUsername(
  db: Db,
  username: string,
): Promise<AdvisorRecord | null> {
  const [row] = await db.query<AdvisorRow>("SELECT * FROM advisors WHERE username = $1", [
    username,
  ]);
  return row ? toAdvisor(row) : null;
}

export async function findAdvisor(db: Db, advisorId: string): Promise<AdvisorRecord | null> {
  const [row] = await db.query<AdvisorRow>("SELECT * FROM advisors WHERE advisor_id = $1", [
    advisorId,
  ]);
  return row ? toAdvisor(row) : null;
}

/** Lock the advisor's row for the rest of the transaction (serialises their accepts). */
export async function lockAdvisor(tx: Db, advisorId: string): Promise<AdvisorRecord | null> {
  const [row] = await tx.query<AdvisorRow>(
    "SELECT * FROM advisors WHERE advisor_id = $1 FOR UPDATE",
    [advisorId],
  );
  return row ? toAdvisor(row) : null;
}

export async function setAvailability(
  db: Db,
  advisorId: string,
  availability: AdvisorAvailability,
): Promise<void> {
  await db.query("UPDATE advisors SET availability = $2 WHERE advisor_id = $1", [
    advisorId,
    availability,
  ]);
}

export async function insertAdvisor(
  db: Db,
  a: { advisorId: string; username: string; name: string; passwordHash: string; maxChats?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO advisors (advisor_id, username, display_name, password_hash, max_chats) VALUES ($1, $2, $3, $4, $5)`,
    [a.advisorId, a.username, a.name, a.passwordHash, a.maxChats ?? 10],
  );
}

export async function createSession(
  db: Db,
  token: string,
  advisorId: string,
  nowIso: string,
  expiresIso: string,
) {
  await db.query("DELETE FROM advisor_sessions WHERE expires_at <= $1", [nowIso]);
  await db.query(
    "INSERT INTO advisor_sessions (token_hash, advisor_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    [hashToken(token), advisorId, nowIso, expiresIso],
  );
}

export async function findSessionAdvisor(
  db: Db,
  token: string,
  nowIso: string,
): Promise<AdvisorRecord | null> {
  const [row] = await db.query<AdvisorRow>(
    `SELECT a.* FROM advisor_sessions s JOIN advisors a ON a.advisor_id = s.advisor_id
     WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [hashToken(token), nowIso],
  );
  return row ? toAdvisor(row) : null;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.query("DELETE FROM advisor_sessions WHERE token_hash = $1", [hashToken(token)]);
}
