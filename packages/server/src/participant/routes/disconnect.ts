import { ParticipantPath, type DisconnectParticipantRequest } from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { isoAt } from "../../clock.js";
import { findResponse, recordResponse } from "../../contact-centre/idempotency-repo.js";
import { hashRequest } from "../../contact-centre/tokens.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { disconnectBody } from "../schemas.js";

/**
 * DisconnectParticipant: participant.left, then chat.ended when the customer leaves — both
 * also delivered to the leaver's own sockets (§1.9). A retry with the same ClientToken
 * answers `{}` again; any other call after leaving is AccessDeniedException.
 */
export function registerDisconnect(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: DisconnectParticipantRequest }>(
    ParticipantPath.DisconnectParticipant,
    {
      preValidation: authHook(ctx, "connection", { allowLeft: true }),
      schema: { body: disconnectBody },
    },
    async (request) => {
      const { participant, contact } = callerOf(request);
      const clientToken = request.body.ClientToken;
      const key = clientToken
        ? {
            participantId: participant.participantId,
            operation: "DisconnectParticipant",
            clientToken,
            requestHash: hashRequest([]),
          }
        : null;
      if (key && (await findResponse(ctx.deps.db, key, isoAt(ctx.clock.now())))) return {};
      if (participant.leftAt || contact.status !== "active") {
        throw Errors.accessDenied("The participant has left or the chat has ended.");
      }
      await ctx.deps.centre.disconnectParticipant(contact.contactId, participant.participantId);
      if (key) await recordResponse(ctx.deps.db, key, {}, isoAt(ctx.clock.now()));
      return {};
    },
  );
}
