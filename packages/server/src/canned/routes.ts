/**
 * Canned responses in the agent API and the admin API (wire types: @chat-widget/protocol
 * canned.ts). Any signed-in advisor lists the shared ones and their own, and manages their own;
 * a shared one is changed only with the admin token (403 to an advisor), another advisor's is
 * not found (404). Each owner keeps a bounded number.
 */
import { randomUUID } from "node:crypto";
import {
  CannedApiPath,
  CannedLimits,
  type CannedInput,
  type CannedListResponse,
  type CannedResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { isoAt, type Clock } from "../clock.js";
import { Errors } from "../errors.js";
import { bearerToken } from "../http/bearer.js";
import type { Db } from "../store/db.js";
import {
  cannedOwner,
  countCanned,
  deleteCanned,
  insertCanned,
  listCanned,
  updateCanned,
  type Owner,
} from "./canned-repo.js";

const cannedBody = {
  type: "object",
  required: ["Shortcut", "Title", "Body"],
  additionalProperties: false,
  properties: {
    Shortcut: { type: "string", pattern: CannedLimits.SHORTCUT_PATTERN },
    Title: { type: "string", minLength: 1, maxLength: CannedLimits.TITLE_MAX },
    Body: { type: "string", minLength: 1, maxLength: CannedLimits.BODY_MAX },
  },
} as const;

const cannedParams = {
  type: "object",
  required: ["cannedId"],
  properties: { cannedId: { type: "string", minLength: 1, maxLength: 64 } },
} as const;

type OneRoute = { Params: { cannedId: string } };

interface Manage {
  db: Db;
  clock: Clock;
  /** Whose responses the caller manages: an advisor's id, or null (the team's, by an admin). */
  owner(request: FastifyRequest): Promise<Owner>;
}

const checked = (input: CannedInput): CannedInput => {
  if (!input.Title.trim() || !input.Body.trim())
    throw Errors.validation("A canned response needs a title and a text.");
  return { Shortcut: input.Shortcut, Title: input.Title.trim(), Body: input.Body };
};

/** Create, change and delete the caller's own (POST list, PUT/DELETE one). */
function manageRoutes(app: FastifyInstance, listPath: string, onePath: string, m: Manage) {
  const notTheirs = async (owner: Owner, id: string): Promise<never> => {
    const found = await cannedOwner(m.db, id);
    if (found && found.owner === null && owner !== null)
      throw Errors.accessDenied("Shared canned responses are managed by an admin.");
    throw Errors.notFound(`Canned response ${id} was not found.`, id, "CANNED_RESPONSE");
  };

  app.post<{ Body: CannedInput }>(
    listPath,
    { schema: { body: cannedBody } },
    async (request): Promise<CannedResponse> => {
      const owner = await m.owner(request);
      const input = checked(request.body);
      const max = owner === null ? CannedLimits.SHARED_MAX : CannedLimits.PERSONAL_MAX;
      if ((await countCanned(m.db, owner)) >= max)
        throw Errors.conflict(`There are ${max} canned responses already, the most kept.`);
      return insertCanned(m.db, owner, randomUUID(), input, isoAt(m.clock.now()));
    },
  );

  app.put<OneRoute & { Body: CannedInput }>(
    onePath,
    { schema: { params: cannedParams, body: cannedBody } },
    async (request): Promise<CannedResponse> => {
      const owner = await m.owner(request);
      const id = request.params.cannedId;
      const input = checked(request.body);
      return (
        (await updateCanned(m.db, owner, id, input, isoAt(m.clock.now()))) ?? notTheirs(owner, id)
      );
    },
  );

  app.delete<OneRoute>(onePath, { schema: { params: cannedParams } }, async (request) => {
    const owner = await m.owner(request);
    const id = request.params.cannedId;
    if (!(await deleteCanned(m.db, owner, id))) await notTheirs(owner, id);
    return {};
  });
}

/** In the agent API's scope: an advisor's list, and their own responses. */
export async function cannedRoutes(
  app: FastifyInstance,
  o: { db: Db; clock: Clock; authenticate(token: string | undefined): Promise<AdvisorRecord> },
): Promise<void> {
  const advisorOf = async (request: FastifyRequest) =>
    (await o.authenticate(bearerToken(request))).AdvisorId;
  app.get(CannedApiPath.List, async (request): Promise<CannedListResponse> => ({
    Canned: await listCanned(o.db, await advisorOf(request)),
  }));
  manageRoutes(app, CannedApiPath.List, CannedApiPath.One, { ...o, owner: advisorOf });
}

/** In the admin API's scope (its admin-token check applies): the team's shared responses. */
export async function cannedAdminRoutes(
  app: FastifyInstance,
  o: { db: Db; clock: Clock },
): Promise<void> {
  app.get(CannedApiPath.AdminList, async (): Promise<CannedListResponse> => ({
    Canned: await listCanned(o.db, null),
  }));
  manageRoutes(app, CannedApiPath.AdminList, CannedApiPath.AdminOne, {
    ...o,
    owner: async () => null,
  });
}
