import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import { isoAt } from "../clock.js";
import { findLastSeq } from "../contact-centre/contacts-repo.js";
import { findCallerByToken } from "../contact-centre/participants-repo.js";
import type { ParticipantRecord } from "../contact-centre/rows.js";
import { hashToken } from "../contact-centre/tokens.js";
import { Errors, isServiceError } from "../errors.js";
import { sendError } from "../http/errors.js";
import { frameText } from "../http/frame-text.js";
import type { ParticipantContext } from "./context.js";
import { answerFrame } from "./frames.js";
import { WEBSOCKET_PATH } from "./routes/connection.js";
import { websocketQuery } from "./schemas.js";
import type { Connection, SocketHub } from "./socket-hub.js";
import { addressKey } from "../http/client-address.js";
import type { Release } from "../limits/limit-store.js";

type WsRequest = FastifyRequest<{ Querystring: { token: string } }>;

/** The limit store's table of participant websockets per client address. */
export const WEBSOCKETS_TABLE = "websockets-address";

/**
 * The participant behind a websocket URL's token, still in an active contact: from the callers
 * this process granted a websocket URL (CallerCache), else from the store.
 */
async function authenticateSocket(
  ctx: ParticipantContext,
  token: string,
): Promise<ParticipantRecord> {
  const hash = hashToken(token);
  const now = ctx.clock.now();
  const granted = ctx.callers.get("websocket", hash, now);
  if (granted) return granted.participant;
  const found = await findCallerByToken(ctx.deps.db, "websocket_tokens", hash, isoAt(now));
  if (!found) throw Errors.accessDenied("The websocket URL is not valid or has expired.");
  const { participant, contact } = found;
  if (participant.leftAt || contact.status !== "active") {
    throw Errors.accessDenied("The participant has left or the chat has ended.");
  }
  return participant;
}

/** The participant websocket: subscribe, heartbeat, deep heartbeat, `aws/chat` delivery (docs/protocol.md §3). */
export function registerWebsocket(
  app: FastifyInstance,
  ctx: ParticipantContext,
  hub: SocketHub,
): void {
  /** Each upgrade's participant, and its contact's last seq before its socket opened. */
  const participants = new WeakMap<FastifyRequest, { p: ParticipantRecord; lastSeq: number }>();
  const max = ctx.deps.config.websocketsPerAddress;
  const tooMany = () =>
    Errors.throttling(
      `Too many websockets from this address (at most ${max}). Close one and try again.`,
      5,
    );
  app.get(
    WEBSOCKET_PATH,
    {
      websocket: true,
      schema: { querystring: websocketQuery },
      preHandler: async (request: WsRequest, reply) => {
        // An upgrade takes a place among the address's websockets (in the limit store: shared
        // by every process over Redis), held until its connection closes. A plain GET becomes
        // no websocket and takes none.
        let release: Release | null = null;
        if (request.ws) {
          const socket = request.raw.socket;
          release = await ctx.deps.limits.acquire({
            table: WEBSOCKETS_TABLE,
            key: addressKey(request.ip),
            max,
          });
          if (!release) return sendError(reply, tooMany());
          const taken = release;
          // Closed while the place was being taken: its close event has passed already.
          if (socket.destroyed) return void (await taken());
          socket.once("close", () => void taken());
        }
        try {
          const p = await authenticateSocket(ctx, request.query.token);
          participants.set(request, { p, lastSeq: await findLastSeq(ctx.deps.db, p.contactId) });
        } catch (error) {
          await release?.();
          if (isServiceError(error)) return sendError(reply, error);
          throw error;
        }
      },
    },
    (socket: WebSocket, request: WsRequest) => {
      const authenticated = participants.get(request);
      if (!authenticated) {
        socket.close(1008, "unauthenticated");
        return;
      }
      const participant = authenticated.p;
      const connection: Connection = {
        id: randomUUID(),
        contactId: participant.contactId,
        participantId: participant.participantId,
        socket,
        topics: new Set(),
      };
      hub.add(connection, authenticated.lastSeq);
      ctx.deps.writes.track(socket);
      socket.on("message", (data: RawData, isBinary: boolean) => {
        answerFrame(connection, frameText(data), isBinary, ctx.deps.frames).catch(
          (error: unknown) => request.log.warn({ err: error }, "websocket frame failed"),
        );
      });
      socket.on("close", () => {
        hub.remove(connection);
      });
      socket.on("error", (error) => request.log.info({ err: error }, "websocket error"));
      // Mostly marked already (CreateParticipantConnection with ConnectParticipant).
      if (participant.connectedAt === null) {
        ctx.deps.centre
          .markConnected(participant.contactId, participant.participantId)
          .catch((error: unknown) => request.log.warn({ err: error }, "markConnected failed"));
      }
    },
  );
}
