import {
  Limits,
  ParticipantPath,
  type CreateParticipantConnectionRequest,
  type CreateParticipantConnectionResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import { websocketBase, type ParticipantContext } from "../context.js";
import { connectionBody } from "../schemas.js";

/** The path of the participant websocket; its `token` query parameter is valid for 100 s. */
export const WEBSOCKET_PATH = "/participant/ws";

const WEBRTC_CONNECTION = "WEBRTC_CONNECTION";

/** CreateParticipantConnection (docs/protocol.md §1.3, §5). */
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
      const grant = await ctx.deps.centre.createConnection(
        contact.contactId,
        participant.participantId,
        {
          websocket: types.includes("WEBSOCKET"),
          credentials: types.includes("CONNECTION_CREDENTIALS"),
          connect: request.body.ConnectParticipant === true,
        },
      );
      const response: CreateParticipantConnectionResponse = {};
      if (grant.websocket) {
        response.Websocket = {
          Url: `${websocketBase(ctx)}${WEBSOCKET_PATH}?token=${grant.websocket.token}`,
          ConnectionExpiry: grant.websocket.expiry,
        };
      }
      if (grant.credentials) {
        response.ConnectionCredentials = {
          ConnectionToken: grant.credentials.connectionToken,
          Expiry: grant.credentials.expiry,
        };
      }
      return response;
    },
  );
}
