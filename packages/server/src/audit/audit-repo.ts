/**
 * The audit log (issue 62): each admin action, who did it (an admin's username, the admin
 * token, or the CLI), what and to whom, when and from which address. Read newest first.
 */
import { toIso } from "../contact-centre/rows.js";
import type { Db } from "../store/db.js";

export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  address: string | null;
}

/** An entry as the admin API shows it. */
export interface AuditRecord {
  Id: number;
  At: string;
  Actor: string;
  Action: string;
  Target: string | null;
  Detail: Record<string, unknown>;
  Address: string | null;
}

interface AuditRow {
  audit_id: number | string;
  at: unknown;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  address: string | null;
}

export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.query(
    "INSERT INTO audit_log (at, actor, action, target, detail, address) VALUES ($1, $2, $3, $4, $5::jsonb, $6)",
    [e.at, e.actor, e.action, e.target, JSON.stringify(e.detail), e.address],
  );
}

/** Up to `limit` entries, newest first, older than the entry `before` when given. */
export async function listAudit(
  db: Db,
  o: { limit: number; before?: number | undefined },
): Promise<AuditRecord[]> {
  const rows = await db.query<AuditRow>(
    `SELECT * FROM audit_log WHERE ($1::bigint IS NULL OR audit_id < $1)
     ORDER BY audit_id DESC LIMIT $2`,
    [o.before ?? null, o.limit],
  );
  return rows.map((r) => ({
    Id: Number(r.audit_id),
    At: toIso(r.at),
    Actor: r.actor,
    Action: r.action,
    Target: r.target,
    Detail: (typeof r.detail === "string" ? JSON.parse(r.detail) : r.detail) as Record<
      string,
      unknown
    >,
    Address: r.address,
  }));
}
