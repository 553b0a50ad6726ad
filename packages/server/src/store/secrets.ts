import { randomBytes } from "node:crypto";
import type { Db } from "./db.js";

/**
 * The named secret kept in the database, created on first use. Every process sharing the
 * database gets the same value, and it survives restarts (signed URLs stay valid).
 */
export async function loadOrCreateSecret(db: Db, name: string): Promise<string> {
  await db.query(
    "INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
    [name, randomBytes(32).toString("base64url")],
  );
  const [row] = await db.query<{ value: string }>(
    "SELECT value FROM server_secrets WHERE name = $1",
    [name],
  );
  if (!row) throw new Error(`secret ${name} could not be stored`);
  return row.value;
}
