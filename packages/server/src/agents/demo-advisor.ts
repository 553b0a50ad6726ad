/**
 * The demo advisor (username demo, password demo; seeded by migration 101): on in demo mode;
 * in production mode disabled and signed out, and if its password is still "demo" that
 * password is removed (a hash no password matches), so enabling the account again, by mistake
 * or by a demo-mode process on the same database, never brings demo/demo back. The account
 * then needs a password of its own (`advisors reset-password demo`), in either mode.
 */
import type { Mode } from "../config.js";
import type { Db } from "../store/db.js";
import { deleteAdvisorSessions } from "./advisors-repo.js";
import { verifyPassword } from "./password.js";

export const DEMO_ADVISOR_ID = "demo-advisor";
const DEMO_PASSWORD = "demo";
/** Not of the form `scrypt$…` (agents/password.ts): no password verifies against it. */
const NO_PASSWORD = "removed-in-production-mode";

export async function applyModeToDemoAdvisor(db: Db, mode: Mode): Promise<void> {
  const production = mode === "production";
  await db.query("UPDATE advisors SET disabled = $2 WHERE advisor_id = $1", [
    DEMO_ADVISOR_ID,
    production,
  ]);
  if (!production) return;
  const [row] = await db.query<{ password_hash: string }>(
    "SELECT password_hash FROM advisors WHERE advisor_id = $1",
    [DEMO_ADVISOR_ID],
  );
  if (row && (await verifyPassword(DEMO_PASSWORD, row.password_hash))) {
    await db.query(
      "UPDATE advisors SET password_hash = $2 WHERE advisor_id = $1 AND password_hash = $3",
      [DEMO_ADVISOR_ID, NO_PASSWORD, row.password_hash],
    );
  }
  await deleteAdvisorSessions(db, DEMO_ADVISOR_ID);
}
