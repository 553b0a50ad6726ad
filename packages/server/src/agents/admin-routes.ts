/**
 * The admin API under `/admin-api` (issue 10): what the advisor CLI does, over HTTP for a
 * running deployment, with its own credential (`Authorization: Bearer <ADMIN_TOKEN>`). Without
 * ADMIN_TOKEN there is no admin API (404).
 *
 *   GET  /admin-api/advisors                              → { Advisors: [...] }
 *   POST /admin-api/advisors { Username, Name, MaxConcurrentChats? } → { Username, Password }
 *   POST /admin-api/advisors/:username/disable | /enable  → {}
 *   POST /admin-api/advisors/:username/reset-password     → { Username, Password }
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Errors } from "../errors.js";
import { bearerToken, secretMatcher } from "../http/bearer.js";
import { handleError } from "../http/errors.js";
import { rejectNulCharacters } from "../http/input-guard.js";
import type { Db } from "../store/db.js";
import {
  addAdvisor,
  listAdvisors,
  resetAdvisorPassword,
  setAdvisorDisabled,
} from "./advisor-admin.js";

export interface AdminRoutesOptions {
  db: Db;
  adminToken: string;
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
  const isAdminToken = secretMatcher(options.adminToken);
  app.setErrorHandler(handleError);
  rejectNulCharacters(app);
  app.addHook("onRequest", async (request: FastifyRequest) => {
    if (!isAdminToken(bearerToken(request)))
      throw Errors.accessDenied("The admin API needs the admin token as a Bearer token.");
  });

  app.get("/admin-api/advisors", async () => ({
    Advisors: (await listAdvisors(db)).map((a) => ({
      Username: a.Username,
      Name: a.Name,
      Availability: a.Availability,
      MaxConcurrentChats: a.MaxConcurrentChats,
      Disabled: a.disabled,
    })),
  }));

  app.post<{ Body: { Username?: unknown; Name?: unknown; MaxConcurrentChats?: unknown } }>(
    "/admin-api/advisors",
    async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const { password } = await addAdvisor(db, {
        username: body.Username,
        name: body.Name,
        maxChats: body.MaxConcurrentChats,
      });
      return { Username: body.Username, Password: password };
    },
  );

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
}
