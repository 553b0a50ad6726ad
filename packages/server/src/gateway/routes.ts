/**
 * The widget service and gateway (spec §7, decisions 1–3): verify, start chat, and the
 * order-number report. Only pages on the allowed origins may use them (CORS and a server-side check).
 */
import {
  DemoIds,
  GatewayPath,
  SNIPPET_ID_HEADER,
  type DiscussedOrderNumberRequest,
  type StartChatRequest,
  type StartChatResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import type { ServerDeps } from "../deps.js";
import { Errors } from "../errors.js";
import { featureErrorHandler } from "./http-errors.js";
import { rejectNulCharacters } from "./input-guard.js";
import { acceptJsonOfAnyType } from "./lenient-json.js";
import { decodeJwt, jwtAttributes, JwtError, verifyJwt } from "./jwt.js";
import { checkOrigin, setCorsHeaders } from "./origin.js";
import { discussedOrderNumberBody, startChatBody } from "./schemas.js";

export interface GatewayOptions {
  deps: ServerDeps;
  clock: Clock;
  /** Contact flow ids that exist (the flows loaded from `flows/`). */
  flowIds: ReadonlySet<string>;
  instanceIds?: ReadonlySet<string>;
}

export async function gatewayRoutes(app: FastifyInstance, options: GatewayOptions): Promise<void> {
  const { deps, clock, flowIds } = options;
  const instances = options.instanceIds ?? new Set<string>([DemoIds.INSTANCE_ID]);
  const { config, centre } = deps;

  app.setErrorHandler(featureErrorHandler);
  rejectNulCharacters(app);
  acceptJsonOfAnyType(app);

  /** CORS for allowed origins only; requests from elsewhere are refused before any work. */
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const verdict = checkOrigin(request, config.allowedOrigins);
    if (!verdict.allowed) throw Errors.accessDenied(verdict.reason);
    if (verdict.origin !== null) setCorsHeaders(reply, verdict.origin, request);
    if (request.method === "OPTIONS") return reply.code(204).send();
  });
  for (const path of [
    GatewayPath.Verify,
    GatewayPath.StartChat,
    GatewayPath.DiscussedOrderNumber,
  ]) {
    app.options(path, async (_request, reply) => reply.code(204).send());
  }

  const requireInstance = (instanceId: string) => {
    if (!instances.has(instanceId)) {
      throw Errors.notFound(`Instance ${instanceId} was not found.`, instanceId, "INSTANCE");
    }
  };

  app.get(GatewayPath.Verify, async (request) => {
    const snippet = request.headers[SNIPPET_ID_HEADER.toLowerCase()];
    if (typeof snippet !== "string" || snippet === "") {
      throw Errors.validation(`The ${SNIPPET_ID_HEADER} header is required.`);
    }
    if (!config.snippetIds.includes(snippet)) {
      throw Errors.accessDenied(`Snippet ${snippet} is not registered.`);
    }
    return { ok: true };
  });

  app.post<{ Body: StartChatRequest }>(
    GatewayPath.StartChat,
    { schema: { body: startChatBody } },
    async (request): Promise<StartChatResponse> => {
      const body = request.body;
      requireInstance(body.InstanceId);
      if (!flowIds.has(body.ContactFlowId)) {
        throw Errors.notFound(
          `Contact flow ${body.ContactFlowId} was not found.`,
          body.ContactFlowId,
          "CONTACT_FLOW",
        );
      }
      const attributes =
        body.Jwt === undefined
          ? {}
          : jwtAttributes(readJwt(body.Jwt, config.widgetJwtSecret, clock));
      const started = await centre.startChat({
        instanceId: body.InstanceId,
        contactFlowId: body.ContactFlowId,
        displayName: body.ParticipantDetails.DisplayName,
        supportedContentTypes: body.SupportedMessagingContentTypes ?? [],
        attributes,
      });
      return {
        data: {
          startChatResult: {
            ContactId: started.contactId,
            ParticipantId: started.participantId,
            ParticipantToken: started.participantToken,
          },
        },
      };
    },
  );

  app.post<{ Body: DiscussedOrderNumberRequest }>(
    GatewayPath.DiscussedOrderNumber,
    { schema: { body: discussedOrderNumberBody } },
    async (request) => {
      const { InstanceId, InitialContactId, Attributes } = request.body;
      requireInstance(InstanceId);
      const contact = await centre.getContact(InitialContactId);
      if (!contact || contact.instanceId !== InstanceId) {
        throw Errors.notFound(
          `Contact ${InitialContactId} was not found.`,
          InitialContactId,
          "CONTACT",
        );
      }
      if (contact.status !== "active")
        throw Errors.conflict(`Contact ${InitialContactId} has ended.`);
      // With a jwt key, attributes from the verified jwt stand; a report only adds new keys.
      const updates = config.widgetJwtSecret
        ? Object.fromEntries(
            Object.entries(Attributes).filter(([k]) => contact.attributes[k] === undefined),
          )
        : Attributes;
      if (Object.keys(updates).length > 0)
        await centre.updateAttributes(contact.contactId, updates);
      return { ok: true };
    },
  );
}

/** Decode the visitor jwt; verify its signature when the server has a key. */
function readJwt(token: string, secret: string | undefined, clock: Clock): Record<string, unknown> {
  try {
    return secret ? verifyJwt(token, secret, clock.now()) : decodeJwt(token);
  } catch (error) {
    if (!(error instanceof JwtError)) throw error;
    throw secret ? Errors.accessDenied(error.message) : Errors.validation(error.message);
  }
}
