/**
 * Who may call the admin API (issue 62), and the audit log of what they change there: the admin
 * token (ADMIN_TOKEN), or a signed-in advisor holding the admin role. Every change that succeeds
 * is in the audit log before it is answered.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { isoAt, type Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { bearerToken, secretMatcher } from "../http/bearer.js";
import { handleError } from "../http/errors.js";
import { rejectNulCharacters } from "../http/input-guard.js";
import type { Db } from "../store/db.js";
import { recordAudit } from "./audit-repo.js";

/** The audit log's actor for the admin token, and for the advisor CLI. */
export const ADMIN_TOKEN_ACTOR = "(admin token)";
export const CLI_ACTOR = "(cli)";

export interface AdminAccessOptions {
  db: Db;
  clock: Clock;
  /** Without one, only admins' sessions are let in. */
  adminToken?: string | undefined;
  /** The advisor of a session token; refuses (403) one not valid, expired or disabled. */
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
}

const actors = new WeakMap<FastifyRequest, string>();

/** Fields of a request kept in its audit entry: never a password, strings cut at 200. */
function auditDetail(request: FastifyRequest): Record<string, unknown> {
  const fields = {
    ...(request.params as Record<string, unknown>),
    ...(typeof request.body === "object" && request.body && !Array.isArray(request.body)
      ? (request.body as Record<string, unknown>)
      : {}),
  };
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([key]) => !/password|secret|token/i.test(key))
      .map(([key, value]) => [key, typeof value === "string" ? value.slice(0, 200) : value]),
  );
}

/** The admin API's door and its audit log, for every route registered in `app`. */
export function adminAccess(app: FastifyInstance, o: AdminAccessOptions): void {
  app.setErrorHandler(handleError);
  rejectNulCharacters(app);
  const isAdminToken = o.adminToken ? secretMatcher(o.adminToken) : () => false;
  app.addHook("onRequest", async (request) => {
    const token = bearerToken(request);
    if (isAdminToken(token)) return void actors.set(request, ADMIN_TOKEN_ACTOR);
    if (!token)
      throw Errors.accessDenied(
        "The admin API needs an admin's session, or the admin token, as a Bearer token.",
      );
    const advisor = await o.authenticate(token);
    if (!advisor.roles.includes("admin")) throw Errors.accessDenied("This needs the admin role.");
    actors.set(request, advisor.Username);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const actor = actors.get(request);
    if (request.method === "GET" || reply.statusCode >= 300 || !actor) return payload;
    const params = request.params as Record<string, unknown>;
    const body = request.body as Record<string, unknown> | null;
    const target = params.username ?? params.id ?? body?.Username;
    await recordAudit(o.db, {
      at: isoAt(o.clock.now()),
      actor,
      action: `${request.method} ${request.routeOptions.url ?? request.url}`,
      target: typeof target === "string" ? target.slice(0, 200) : null,
      detail: auditDetail(request),
      address: request.ip,
    });
    return payload;
  });
}
