/**
 * The advisor websocket transport (agent API): `POST /agent-api/websocket-transport` hands a
 * signed-in advisor a URL for ONE websocket that carries the items of every contact they hold;
 * `GET /agent-api/ws?token=…` is that websocket, speaking the participant websocket's frames.
 * The console gives it to every AGENT chat session as their shared websocket manager.
 */
import { randomUUID } from "node:crypto";
import { AgentApiPath, Limits, type WebSocketTransportResponse } from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import { AGENT_CHANNEL } from "../agents/channel.js";
import { advisorSignedIn, findSessionAdvisor } from "../agents/advisors-repo.js";
import { isoAt, systemClock, type Clock } from "../clock.js";
import { CENTRE_CHANNEL } from "../contact-centre/channel.js";
import type { ServerDeps } from "../deps.js";
import { Errors } from "../errors.js";
import { bearerToken } from "../http/bearer.js";
import { frameText } from "../http/frame-text.js";
import { isOwnOrigin, originOf } from "../http/origin.js";
import { AdvisorSocketHub, type AdvisorConnection } from "./advisor-hub.js";
import { answerFrame } from "../participant/frames.js";
import {
  ADVISOR_SOCKET_URL_TTL_MS,
  issueTransportToken,
  verifyTransportToken,
} from "./transport-token.js";

/** chatjs's transport lifetime: a proactive reconnect after 3540 s (docs/product.md §9). */
export const ADVISOR_TRANSPORT_LIFETIME_SECONDS = 3540;

export interface AgentSocketOptions {
  deps: ServerDeps;
  clock?: Clock;
}

type WsRequest = FastifyRequest<{ Querystring: { token: string } }>;

const wsQuery = {
  type: "object",
  required: ["token"],
  properties: { token: { type: "string", minLength: 1, maxLength: Limits.TOKEN_MAX } },
} as const;

/** Register the transport route and the advisor websocket; stops with the app. Returns the hub. */
export async function registerAgentSocket(
  app: FastifyInstance,
  options: AgentSocketOptions,
): Promise<AdvisorSocketHub> {
  const { deps } = options;
  const clock = options.clock ?? systemClock;
  const hub = new AdvisorSocketHub(
    deps.db,
    (err) => deps.log.error({ err }, "advisor websocket"),
    (socket, text) => deps.writes.send(socket, text),
    (count) => deps.repairs.repaired(count),
  );
  const stops = [
    await deps.fanout.subscribe(CENTRE_CHANNEL, hub.handleCentre),
    await deps.fanout.subscribe(AGENT_CHANNEL, hub.handleAgent),
  ];
  // The fan-out was interrupted: the advisors' chats and their items are read again.
  const stopResume = deps.fanout.onResume(() => hub.resync());
  app.addHook("preClose", async () => {
    stopResume();
    for (const stop of stops) await stop();
  });

  const secret = (): string => deps.config.tokenSecret;

  app.post(
    AgentApiPath.WebSocketTransport,
    async (request): Promise<WebSocketTransportResponse> => {
      const token = bearerToken(request);
      if (!token)
        throw Errors.accessDenied("Sign in first: the Authorization header needs a Bearer token.");
      const now = clock.now();
      const advisor = await findSessionAdvisor(deps.db, token, isoAt(now));
      if (!advisor)
        throw Errors.accessDenied("The session has expired or is not valid. Sign in again.");
      const expiresAt = now + ADVISOR_SOCKET_URL_TTL_MS;
      const urlToken = issueTransportToken(secret(), { advisorId: advisor.AdvisorId, expiresAt });
      const base = deps.config.publicUrl.replace(/^http/, "ws");
      return {
        webSocketTransport: {
          url: `${base}${AgentApiPath.WebSocket}?token=${urlToken}`,
          expiry: isoAt(expiresAt),
          transportLifeTimeInSeconds: ADVISOR_TRANSPORT_LIFETIME_SECONDS,
        },
      };
    },
  );

  const opened = new WeakMap<FastifyRequest, { advisorId: string }>();
  app.get(
    AgentApiPath.WebSocket,
    {
      websocket: true,
      schema: { querystring: wsQuery },
      preValidation: async (request: WsRequest) => {
        if (!consoleOrigin(request, deps.config.publicUrl))
          throw Errors.accessDenied("The advisor websocket opens only from the agent console.");
        const now = clock.now();
        const claims = verifyTransportToken(secret(), request.query.token, now);
        if (!claims) throw Errors.accessDenied("The websocket URL is not valid or has expired.");
        // A URL handed out before the advisor was disabled or signed out opens nothing.
        if (!(await advisorSignedIn(deps.db, claims.advisorId, isoAt(now))))
          throw Errors.accessDenied("The session has expired or is not valid. Sign in again.");
        opened.set(request, { advisorId: claims.advisorId });
      },
    },
    (socket: WebSocket, request: WsRequest) => {
      const who = opened.get(request);
      if (!who) {
        socket.close(1008, "unauthenticated");
        return;
      }
      const connection: AdvisorConnection = {
        id: randomUUID(),
        socket,
        topics: new Set(),
        contacts: new Set(),
        advisorId: who.advisorId,
      };
      deps.writes.track(socket);
      // Frames are answered once the advisor's chats are known: a confirmed subscription then
      // streams every item the console's transcript read could not have seen.
      const ready = hub.add(connection);
      socket.on("message", (data: RawData, isBinary: boolean) => {
        const text = frameText(data);
        ready
          .then(() => answerFrame(connection, text, isBinary, deps.frames))
          .catch((err: unknown) => request.log.warn({ err }, "advisor websocket frame failed"));
      });
      socket.on("close", () => hub.remove(connection));
      socket.on("error", (err) => request.log.info({ err }, "advisor websocket error"));
    },
  );
  return hub;
}

/**
 * A browser names the page that opens a websocket in `Origin`: only the agent console, served
 * by this server (its public URL, or the host the request came to), may open an advisor's.
 * Tools that send no Origin still need the signed URL token.
 */
function consoleOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const header = request.headers.origin;
  if (typeof header !== "string" || header === "") return true;
  const origin = originOf(header);
  return origin !== null && (origin === originOf(publicUrl) || isOwnOrigin(origin, request));
}
