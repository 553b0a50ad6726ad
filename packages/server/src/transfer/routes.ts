/**
 * Transfer in the agent API (wire types: @chat-widget/protocol transfer.ts): the advisor
 * holding a live chat reads who can take it and hands it on. Anyone else is refused as every
 * agent route refuses them (another advisor 404, a participant token or a stranger 403).
 */
import {
  TRANSFER_NOTE_MAX,
  TransferApiPath,
  type TransferRequest,
  type TransferResponse,
  type TransferTargetsResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { contactParams } from "../agents/schemas.js";
import { bearerToken } from "../http/bearer.js";
import type { Transfers } from "./transfers.js";

export interface TransferRoutesOptions {
  transfers: Transfers;
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
}

const transferBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    AdvisorId: { type: "string", minLength: 1, maxLength: 64 },
    Queue: { type: "boolean", enum: [true] },
    Note: { type: "string", maxLength: TRANSFER_NOTE_MAX },
  },
} as const;

type ContactRoute = { Params: { contactId: string } };

/** Registered in the agent API's scope (its error handler and input guards apply). */
export async function transferRoutes(
  app: FastifyInstance,
  o: TransferRoutesOptions,
): Promise<void> {
  app.get<ContactRoute>(
    TransferApiPath.Targets,
    { schema: { params: contactParams } },
    async (request): Promise<TransferTargetsResponse> =>
      o.transfers.targets(await o.authenticate(bearerToken(request)), request.params.contactId),
  );

  app.post<ContactRoute & { Body: TransferRequest }>(
    TransferApiPath.Transfer,
    { schema: { params: contactParams, body: transferBody } },
    async (request): Promise<TransferResponse> =>
      o.transfers.transfer(
        await o.authenticate(bearerToken(request)),
        request.params.contactId,
        request.body,
      ),
  );
}
