/**
 * The admin API under `/admin-api` (issue 10): what the advisor CLI does, over HTTP for a
 * running deployment, for the admin token (`Authorization: Bearer <ADMIN_TOKEN>`) or an admin's
 * session (issue 62; audit/admin-access.ts is the door, and writes the audit log).
 *
 *   GET  /admin-api/advisors                              → { Advisors: [...] }
 *   POST /admin-api/advisors { Username, Name, MaxConcurrentChats?, Roles? } → { Username, Password }
 *   POST /admin-api/advisors/:username/disable | /enable  → {}
 *   POST /admin-api/advisors/:username/reset-password     → { Username, Password }
 *   POST /admin-api/advisors/:username/roles { Roles }    → {}
 */
import type { FastifyInstance } from "fastify";
import type { Db } from "../store/db.js";
import {
  addAdvisor,
  listAdvisors,
  resetAdvisorPassword,
  setAdvisorDisabled,
  setAdvisorRoles,
} from "./advisor-admin.js";

export interface AdminRoutesOptions {
  db: Db;
  /** An advisor was disabled or enabled (the flow's cached availability goes). */
  onAdvisorsChanged?: () => void;
  /**
   * An advisor was disabled or had their password reset: what they hold ends in every process
   * (AgentService.revoke), before the request is answered.
   */
  revoke?: (advisorId: string) => Promise<void>;
}

type UserRoute = { Params: { username: string } };

export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions) {
  const { db } = options;

  app.get("/admin-api/advisors", async () => ({
    Advisors: (await listAdvisors(db)).map((a) => ({
      Username: a.Username,
      Name: a.Name,
      Availability: a.Availability,
      MaxConcurrentChats: a.MaxConcurrentChats,
      Disabled: a.disabled,
      Roles: a.roles,
    })),
  }));

  app.post<{ Body: Record<string, unknown> }>("/admin-api/advisors", async (request) => {
    const body = request.body ?? {};
    const { password } = await addAdvisor(db, {
      username: body.Username,
      name: body.Name,
      maxChats: body.MaxConcurrentChats,
      roles: body.Roles,
    });
    return { Username: body.Username, Password: password };
  });

  app.post<UserRoute>("/admin-api/advisors/:username/disable", async (request) => {
    const advisorId = await setAdvisorDisabled(db, request.params.username, true);
    options.onAdvisorsChanged?.();
    await options.revoke?.(advisorId);
    return {};
  });
  app.post<UserRoute>("/admin-api/advisors/:username/enable", async (request) => {
    await setAdvisorDisabled(db, request.params.username, false);
    options.onAdvisorsChanged?.();
    return {};
  });
  app.post<UserRoute>("/admin-api/advisors/:username/reset-password", async (request) => {
    const { password, advisorId } = await resetAdvisorPassword(db, request.params.username);
    await options.revoke?.(advisorId);
    return { Username: request.params.username, Password: password };
  });
  app.post<UserRoute & { Body: { Roles?: unknown } }>(
    "/admin-api/advisors/:username/roles",
    async (request) => {
      // Read with their session on each request: in force at once, nobody signed out.
      await setAdvisorRoles(db, request.params.username, request.body?.Roles);
      return {};
    },
  );
}
