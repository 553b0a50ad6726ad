/**
 * The audit log over the admin API (issue 62), for admins only (admin-access.ts):
 *
 *   GET /admin-api/audit?Limit=<1-200, 50>&Before=<id> → { Entries: [...], NextBefore? }
 */
import type { FastifyInstance } from "fastify";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import { listAudit } from "./audit-repo.js";

export const AUDIT_PAGE_MAX = 200;

function whole(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max))
    throw Errors.validation(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export async function auditRoutes(app: FastifyInstance, o: { db: Db }): Promise<void> {
  app.get<{ Querystring: Record<string, unknown> }>("/admin-api/audit", async (request) => {
    const limit = whole(request.query.Limit, "Limit", 1, AUDIT_PAGE_MAX) ?? 50;
    const before = whole(request.query.Before, "Before", 1, Number.MAX_SAFE_INTEGER);
    const entries = await listAudit(o.db, { limit, before });
    const last = entries.at(-1);
    return {
      Entries: entries,
      ...(entries.length === limit && last ? { NextBefore: String(last.Id) } : {}),
    };
  });
}
