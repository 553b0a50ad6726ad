/**
 * The canned_responses table: shared ones (owner null) and each advisor's own. A shortcut names
 * one response once per owner; a second is refused (409) by the unique indexes, not by a read
 * before the write.
 */
import type { CannedInput, CannedResponse } from "@chat-widget/protocol";
import { toIso } from "../contact-centre/rows.js";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";

/** Whose: the team's (null) or an advisor's id. */
export type Owner = string | null;

interface Row {
  canned_id: string;
  advisor_id: string | null;
  shortcut: string;
  title: string;
  body: string;
  updated_at: unknown;
}

const toCanned = (r: Row): CannedResponse => ({
  CannedId: r.canned_id,
  Shortcut: r.shortcut,
  Title: r.title,
  Body: r.body,
  Shared: r.advisor_id === null,
  UpdatedAt: toIso(r.updated_at),
});

const UNIQUE_VIOLATION = "23505";

/** A duplicate shortcut as the caller should read it. */
async function uniquely<T>(shortcut: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION)
      throw Errors.conflict(`The shortcut /${shortcut} is taken: choose another.`);
    throw error;
  }
}

/** The shared ones and, for an advisor, their own; by shortcut, shared first on a tie. */
export async function listCanned(db: Db, advisorId: string | null): Promise<CannedResponse[]> {
  const rows = await db.query<Row>(
    `SELECT * FROM canned_responses WHERE advisor_id IS NULL OR advisor_id = $1
     ORDER BY shortcut, advisor_id NULLS FIRST, canned_id`,
    [advisorId],
  );
  return rows.map(toCanned);
}

export async function countCanned(db: Db, owner: Owner): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM canned_responses WHERE advisor_id IS NOT DISTINCT FROM $1",
    [owner],
  );
  return Number(row?.n ?? 0);
}

export async function insertCanned(
  db: Db,
  owner: Owner,
  id: string,
  input: CannedInput,
  at: string,
): Promise<CannedResponse> {
  return uniquely(input.Shortcut, async () => {
    const [row] = await db.query<Row>(
      `INSERT INTO canned_responses (canned_id, advisor_id, shortcut, title, body, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [id, owner, input.Shortcut, input.Title, input.Body, at],
    );
    return toCanned(row!);
  });
}

/** Change one of `owner`'s; null when they have none of that id. */
export async function updateCanned(
  db: Db,
  owner: Owner,
  id: string,
  input: CannedInput,
  at: string,
): Promise<CannedResponse | null> {
  return uniquely(input.Shortcut, async () => {
    const [row] = await db.query<Row>(
      `UPDATE canned_responses SET shortcut = $3, title = $4, body = $5, updated_at = $6
       WHERE canned_id = $1 AND advisor_id IS NOT DISTINCT FROM $2 RETURNING *`,
      [id, owner, input.Shortcut, input.Title, input.Body, at],
    );
    return row ? toCanned(row) : null;
  });
}

/** Delete one of `owner`'s; false when they have none of that id. */
export async function deleteCanned(db: Db, owner: Owner, id: string): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM canned_responses WHERE canned_id = $1 AND advisor_id IS NOT DISTINCT FROM $2
     RETURNING 1`,
    [id, owner],
  );
  return rows.length > 0;
}

/** Whether a canned response of that id exists at all, and whose. */
export async function cannedOwner(db: Db, id: string): Promise<{ owner: Owner } | null> {
  const [row] = await db.query<{ advisor_id: string | null }>(
    "SELECT advisor_id FROM canned_responses WHERE canned_id = $1",
    [id],
  );
  return row ? { owner: row.advisor_id } : null;
}
