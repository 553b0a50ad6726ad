/** Advisors and their sign-in sessions (bearer tokens stored only as their SHA-256). */
import type { Advisor, AdvisorAvailability } from "@chat-widget/protocol";
import { hashToken } from "../contact-centre/tokens.js";
import type { Db } from "../store/db.js";
import { storedRoles, type Role } from "./roles.js";

export interface AdvisorRecord extends Advisor {
  passwordHash: string;
  /** A disabled advisor cannot sign in, and their sessions no longer authenticate. */
  disabled: boolean;
  roles: Role[];
}

interface AdvisorRow {
  advisor_id: string;
  username: string;
  display_name: string;
  password_hash: string;
  availability: string;
  max_chats: number;
  disabled: boolean;
  roles: unknown;
}

const toAdvisor = (r: AdvisorRow): AdvisorRecord => ({
  AdvisorId: r.advisor_id,
  Username: r.username,
  Name: r.display_name,
  Availability: r.availability === "Available" ? "Available" : "Offline",
  MaxConcurrentChats: Number(r.max_chats),
  passwordHash: r.password_hash,
  disabled: Boolean(r.disabled),
  roles: storedRoles(r.roles),
});

export const publicAdvisor = ({
  passwordHash: _hash,
  disabled: _disabled,
  roles: _roles,
  ...advisor
}: AdvisorRecord): Advisor => advisor;

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
  a: {
    advisorId: string;
    username: string;
    name: string;
    passwordHash: string;
    maxChats?: number;
    roles?: Role[];
  },
): Promise<void> {
  await db.query(
    `INSERT INTO advisors (advisor_id, username, display_name, password_hash, max_chats, roles) VALUES ($1, $2, $3, $4, $5, $6)`,
    [a.advisorId, a.username, a.name, a.passwordHash, a.maxChats ?? 10, a.roles ?? ["advisor"]],
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
     WHERE s.token_hash = $1 AND s.expires_at > $2 AND NOT a.disabled`,
    [hashToken(token), nowIso],
  );
  return row ? toAdvisor(row) : null;
}

/** Whether this advisor is enabled and signed in somewhere (a session not expired). */
export async function advisorSignedIn(db: Db, advisorId: string, nowIso: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM advisor_sessions s JOIN advisors a ON a.advisor_id = s.advisor_id
     WHERE s.advisor_id = $1 AND s.expires_at > $2 AND NOT a.disabled LIMIT 1`,
    [advisorId, nowIso],
  );
  return rows.length > 0;
}

/** Whether an advisor is signed in (a session not expired), enabled and Available. */
export async function anyAdvisorAvailable(db: Db, nowIso: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM advisors a WHERE a.availability = 'Available' AND NOT a.disabled
     AND EXISTS (SELECT 1 FROM advisor_sessions s WHERE s.advisor_id = a.advisor_id AND s.expires_at > $1)
     LIMIT 1`,
    [nowIso],
  );
  return rows.length > 0;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.query("DELETE FROM advisor_sessions WHERE token_hash = $1", [hashToken(token)]);
}

/** Every advisor, by username. */
export async function listAdvisors(db: Db): Promise<AdvisorRecord[]> {
  const rows = await db.query<AdvisorRow>("SELECT * FROM advisors ORDER BY username");
  return rows.map(toAdvisor);
}

/** Disable or enable an advisor; disabling signs them out everywhere. Their id; null when there is no such advisor. */
export async function setDisabled(
  db: Db,
  username: string,
  disabled: boolean,
): Promise<string | null> {
  const advisor = await findAdvisorByUsername(db, username);
  if (!advisor) return null;
  await db.query("UPDATE advisors SET disabled = $2 WHERE advisor_id = $1", [
    advisor.AdvisorId,
    disabled,
  ]);
  if (disabled) await deleteAdvisorSessions(db, advisor.AdvisorId);
  return advisor.AdvisorId;
}

/** Set a new password hash and sign the advisor out everywhere. Their id; null when there is no such advisor. */
export async function setPasswordHash(
  db: Db,
  username: string,
  passwordHash: string,
): Promise<string | null> {
  const advisor = await findAdvisorByUsername(db, username);
  if (!advisor) return null;
  await db.query("UPDATE advisors SET password_hash = $2 WHERE advisor_id = $1", [
    advisor.AdvisorId,
    passwordHash,
  ]);
  await deleteAdvisorSessions(db, advisor.AdvisorId);
  return advisor.AdvisorId;
}

export async function deleteAdvisorSessions(db: Db, advisorId: string): Promise<void> {
  await db.query("DELETE FROM advisor_sessions WHERE advisor_id = $1", [advisorId]);
}

/** Set an advisor's roles. Their id; null when there is no such advisor. */
export async function setRoles(db: Db, username: string, roles: Role[]): Promise<string | null> {
  const [row] = await db.query<{ advisor_id: string }>(
    "UPDATE advisors SET roles = $2 WHERE username = $1 RETURNING advisor_id",
    [username, roles],
  );
  return row?.advisor_id ?? null;
}

/** How many enabled advisors hold the admin role. */
export async function countEnabledAdmins(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number | string }>(
    "SELECT count(*) AS n FROM advisors WHERE 'admin' = ANY (roles) AND NOT disabled",
  );
  return Number(row?.n ?? 0);
}
