import { ParticipantPath, type DisconnectParticipantRequest } from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
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
      await ctx.deps.centre.disconnectParticipant(
        contact.contactId,
        participant.participantId,
        request.body.ClientToken,
      );
      return {};
    },
  );
}
