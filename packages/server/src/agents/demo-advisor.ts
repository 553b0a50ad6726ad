/**
 * The demo advisor (username demo, password demo; seeded by migration 101): on in demo mode,
 * disabled and signed out in production mode, so a production deployment never ships it.
 */
import type { Mode } from "../config.js";
import type { Db } from "../store/db.js";
import { deleteAdvisorSessions } from "./advisors-repo.js";

export const DEMO_ADVISOR_ID = "demo-advisor";

export async function applyModeToDemoAdvisor(db: Db, mode: Mode): Promise<void> {
  const disabled = mode === "production";
  await db.query("UPDATE advisors SET disabled = $2 WHERE advisor_id = $1", [
    DEMO_ADVISOR_ID,
    disabled,
  ]);
  if (disabled) await deleteAdvisorSessions(db, DEMO_ADVISOR_ID);
}
