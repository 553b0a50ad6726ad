import {
  Limits,
  ParticipantPath,
  type CreateParticipantConnectionRequest,
  type CreateParticipantConnectionResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { isoAt } from "../../clock.js";
import { insertToken, markFirstConnection } from "../../contact-centre/participants-repo.js";
import { hashToken, newToken } from "../../contact-centre/tokens.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import { websocketBase, type ParticipantContext } from "../context.js";
import { connectionBody } from "../schemas.js";

/** The path of the participant websocket; its `token` query parameter is valid for 100 s. */
export const WEBSOCKET_PATH = "/participant/ws";

const WEBRTC_CONNECTION = "WEBRTC_CONNECTION";

/** CreateParticipantConnection (protocol §1.3, §5). */
export function registerConnection(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: CreateParticipantConnectionRequest }>(
    ParticipantPath.CreateParticipantConnection,
    { preValidation: authHook(ctx, "participant"), schema: { body: connectionBody } },
    async (request) => {
      const { participant, contact } = callerOf(request);
      // The SDK model's ConnectionType includes WEBRTC_CONNECTION (calls). A chat has no WebRTC
      // connection: beside other types it is left out of the answer; alone it is refused before
      // anything changes, rather than answered with nothing (docs/wire-decisions.md).
      const types: string[] = request.body.Type ?? [];
      if (types.length > 0 && types.every((t) => t === WEBRTC_CONNECTION)) {
        throw Errors.validation(
          `Type ${WEBRTC_CONNECTION} is not available: a chat contact has no WebRTC connection. Ask for WEBSOCKET and CONNECTION_CREDENTIALS.`,
        );
      }
      const now = ctx.clock.now();
      if (
        participant.firstConnectionAt === null &&
        now - Date.parse(participant.createdAt) > Limits.CONNECT_WINDOW_MS
      ) {
        throw Errors.accessDenied(
          "The participant connection must be created within 5 minutes of starting the chat.",
        );
      }
      const { centre, db } = ctx.deps;
      if (request.body.ConnectParticipant === true) {
        await centre.markConnected(contact.contactId, participant.participantId);
      }
      const response: CreateParticipantConnectionResponse = {};
      if (types.includes("WEBSOCKET")) {
        const token = newToken();
        const expiry = isoAt(now + Limits.WEBSOCKET_URL_TTL_MS);
        await insertToken(
          db,
          "websocket_tokens",
          hashToken(token),
          participant.participantId,
          expiry,
          isoAt(now),
        );
        await markFirstConnection(db, participant.participantId, isoAt(now));
        response.Websocket = {
          Url: `${websocketBase(ctx)}${WEBSOCKET_PATH}?token=${token}`,
          ConnectionExpiry: expiry,
        };
      }
      if (types.includes("CONNECTION_CREDENTIALS")) {
        const grant = await centre.issueConnectionToken(
          contact.contactId,
          participant.participantId,
        );
        response.ConnectionCredentials = {
          ConnectionToken: grant.connectionToken,
          Expiry: grant.expiry,
        };
      }
      return response;
    },
  );
}
