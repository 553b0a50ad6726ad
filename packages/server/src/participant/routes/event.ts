import {
  ContentType,
  Limits,
  ParticipantPath,
  SEND_EVENT_CONTENT_TYPES,
  type SendEventRequest,
  type SendEventResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { eventBody } from "../schemas.js";

/**
 * SendEvent: typing (delivered, not stored), read/delivered receipts (MESSAGEMETADATA
 * items; a repeated ClientToken is a replay only with the same content, §4.4). The legacy
 * connection acknowledgement is refused: it moved to CreateParticipantConnection.
 */
export function registerEvent(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: SendEventRequest }>(
    ParticipantPath.SendEvent,
    { preValidation: authHook(ctx, "connection"), schema: { body: eventBody } },
    async (request): Promise<SendEventResponse> => {
      const { participant, contact } = callerOf(request);
      const type = request.body.ContentType;
      if (type === ContentType.CONNECTION_ACKNOWLEDGED) {
        // Refused as the hosted service has since 31 December 2024; neither our chat client nor
        // amazon-connect-chatjs sends it (docs/wire-decisions.md).
        throw Errors.validation(
          `ContentType ${type} is no longer supported by SendEvent: acknowledge the connection with CreateParticipantConnection and ConnectParticipant: true.`,
        );
      }
      if (!SEND_EVENT_CONTENT_TYPES.includes(type)) {
        throw Errors.validation(`ContentType ${type} is not supported by SendEvent.`);
      }
      const content = request.body.Content;
      if (content !== undefined && Buffer.byteLength(content, "utf8") > Limits.CONTENT_MAX) {
        throw Errors.validation(`Content must be at most ${Limits.CONTENT_MAX} bytes.`);
      }
      const item = await ctx.deps.centre.postEvent(contact.contactId, participant.participantId, {
        contentType: type,
        ...(request.body.Content === undefined ? {} : { content: request.body.Content }),
        ...(request.body.ClientToken ? { clientToken: request.body.ClientToken } : {}),
      });
      return { Id: item.Id, AbsoluteTime: item.AbsoluteTime };
    },
  );
}
