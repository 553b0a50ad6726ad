import {
  ParticipantPath,
  type CancelParticipantAuthenticationRequest,
  type GetAuthenticationUrlRequest,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { authenticationUrlBody, cancelAuthenticationBody } from "../schemas.js";

/**
 * The local contact centre has no Authenticate Customer flow block, so no
 * `authentication.initiated` event is ever sent and no SessionId is ever valid. The hosted
 * service accepts a SessionId only within one minute of that event (docs/protocol.md §1.10), and
 * these operations' only client error besides AccessDenied and Throttling is
 * ValidationException (§1.11: ResourceNotFoundException is DescribeView's alone), so an
 * unknown session is a 400 ValidationException.
 */
function noSession(sessionId: string): Error {
  return Errors.validation(
    `SessionId ${sessionId} does not match a customer authentication in progress on this contact.`,
  );
}

/** GetAuthenticationUrl and CancelParticipantAuthentication (docs/protocol.md §1.2, §1.10). */
export function registerAuthentication(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: GetAuthenticationUrlRequest }>(
    ParticipantPath.GetAuthenticationUrl,
    { preValidation: authHook(ctx, "connection"), schema: { body: authenticationUrlBody } },
    async (request) => {
      callerOf(request);
      throw noSession(request.body.SessionId);
    },
  );

  app.post<{ Body: CancelParticipantAuthenticationRequest }>(
    ParticipantPath.CancelParticipantAuthentication,
    { preValidation: authHook(ctx, "connection"), schema: { body: cancelAuthenticationBody } },
    async (request) => {
      callerOf(request);
      throw noSession(request.body.SessionId);
    },
  );
}
