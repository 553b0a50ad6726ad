import {
  Limits,
  ParticipantPath,
  type CreateParticipantConnectionRequest,
  type CreateParticipantConnectionResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { hashToken } from "../../contact-centre/tokens.js";
import type { ConnectionGrant } from "../../contact-centre/types.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf, type Caller } from "../auth.js";
import { websocketBase, type ParticipantContext } from "../context.js";
import { connectionBody } from "../schemas.js";

/** The path of the participant websocket; its `token` query parameter is valid for 100 s. */
export const WEBSOCKET_PATH = "/participant/ws";

const WEBRTC_CONNECTION = "WEBRTC_CONNECTION";

/**
 * The caller as the grant left it (connected when asked, its first connection made), kept for
 * the websocket URL and the connection token just given (CallerCache): the websocket's upgrade
 * and the chat's next requests are authenticated without reading the store.
 */
function rememberGrant(
  ctx: ParticipantContext,
  { participant, contact }: Caller,
  grant: ConnectionGrant,
  connected: boolean,
): void {
  const granted: Caller = {
    contact,
    participant: {
      ...participant,
      connectedAt: connected ? (participant.connectedAt ?? grant.at) : participant.connectedAt,
      firstConnectionAt: participant.firstConnectionAt ?? grant.at,
    },
  };
  const now = ctx.clock.now();
  const { websocket, credentials } = grant;
  if (websocket) {
    const hash = hashToken(websocket.token);
    ctx.callers.set("websocket", hash, granted, Date.parse(websocket.expiry), now);
  }
  if (credentials) {
    const hash = hashToken(credentials.connectionToken);
    ctx.callers.set("connection", hash, granted, Date.parse(credentials.expiry), now);
  }
}

/** CreateParticipantConnection (docs/protocol.md §1.3, §5). */
export function registerConnection(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: CreateParticipantConnectionRequest }>(
    ParticipantPath.CreateParticipantConnection,
    { preValidation: authHook(ctx, "participant"), schema: { body: connectionBody } },
    async (request) => {
      const caller = callerOf(request);
      const { participant, contact } = caller;
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
      const connect = request.body.ConnectParticipant === true;
      const grant = await ctx.deps.centre.createConnection(
        contact.contactId,
        participant.participantId,
        {
          websocket: types.includes("WEBSOCKET"),
          credentials: types.includes("CONNECTION_CREDENTIALS"),
          connect,
        },
      );
      rememberGrant(ctx, caller, grant, connect);
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
