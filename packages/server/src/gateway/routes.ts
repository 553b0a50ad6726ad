/**
 * The widget service and gateway (docs/product.md §7, docs/decisions.md #1–3): verify, start chat, and the
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
import { DAY_MS, isoAt, type Clock } from "../clock.js";
import { findCallerByToken } from "../contact-centre/participants-repo.js";
import {
  CONTINUATION_REFUSED,
  type PersistentChatInput,
  type RehydrationType,
  visitorSubject,
} from "../contact-centre/rehydration.js";
import type { NewParticipant, StartChatInput } from "../contact-centre/types.js";
import { hashToken } from "../contact-centre/tokens.js";
import type { ServerDeps } from "../deps.js";
import { Errors, ServiceError } from "../errors.js";
import { bearer } from "../participant/auth.js";
import { RateLimiter } from "../participant/rate-limit.js";
import { handleError } from "../http/errors.js";
import { rejectNulCharacters } from "../http/input-guard.js";
import { acceptJsonOfAnyType } from "../http/lenient-json.js";
import { jwtAttributes } from "./jwt.js";
import { checkOrigin, setCorsHeaders } from "../http/origin.js";
import { discussedOrderNumberBody, startChatBody } from "./schemas.js";
import {
  configuredStartChatLimits,
  StartChatThrottle,
  type StartChatLimits,
} from "./start-chat-throttle.js";
import { visitorJwtVerifier } from "./visitor-jwt.js";
import { recordVisitorContext } from "../visitor/context-repo.js";
import { visitorPageRoute } from "../visitor/page-route.js";

export interface GatewayOptions {
  deps: ServerDeps;
  clock: Clock;
  /** Contact flow ids that exist (the flows loaded from `flows/`). */
  flowIds: ReadonlySet<string>;
  instanceIds?: ReadonlySet<string>;
  /**
   * The start-chat throttle's limits (per client address and per instance; defaults in
   * start-chat-throttle.ts), counted in the limit store (`deps.limits`).
   */
  startChatLimits?: Partial<StartChatLimits>;
  /** Starts a chat (default: the contact centre's; the flow runner's opens it with its flow). */
  startChat?: (input: StartChatInput) => Promise<NewParticipant>;
}

export async function gatewayRoutes(app: FastifyInstance, options: GatewayOptions): Promise<void> {
  const { deps, clock, flowIds } = options;
  const instances = options.instanceIds ?? new Set<string>([DemoIds.INSTANCE_ID]);
  const { config, centre } = deps;
  const startChat = options.startChat ?? ((input: StartChatInput) => centre.startChat(input));
  const visitorJwt = visitorJwtVerifier(config);
  const startChatThrottle = new StartChatThrottle({
    clock,
    store: deps.limits,
    limits: { ...configuredStartChatLimits(config), ...options.startChatLimits },
  });

  app.setErrorHandler(handleError);
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

  const allowedAttributes = new Set(config.startChatAttributes);
  const reportLimiter = new RateLimiter(
    clock,
    deps.limits,
    config.rateLimitBurst,
    config.rateLimitPerSecond,
  );
  const requireInstance = (instanceId: string) => {
    if (!instances.has(instanceId)) {
      throw Errors.notFound(`Instance ${instanceId} was not found.`, instanceId, "INSTANCE");
    }
  };

  /** A continuation refused (rehydration.ts) counted by its kind for /metrics; rethrown. */
  const countRefusal = (error: unknown): never => {
    if (error instanceof ServiceError && error.message === CONTINUATION_REFUSED)
      deps.refusals.count("continuation_unproved");
    else if (error instanceof ServiceError && error.message.startsWith("PersistentChat."))
      deps.refusals.count("continuation_invalid");
    throw error;
  };

  /** A start-chat's PersistentChat as the contact centre takes it, with the age limit in force. */
  const persistentChat = (
    asked: NonNullable<StartChatRequest["PersistentChat"]>,
    now: number,
  ): PersistentChatInput => ({
    sourceContactId: asked.SourceContactId!,
    rehydrationType: asked.RehydrationType as RehydrationType,
    ...(asked.ContinuationToken === undefined ? {} : { secret: asked.ContinuationToken }),
    endedAfter: isoAt(now - config.continueChatMaxAgeDays * DAY_MS),
  });

  /**
   * What the visitor's browser says of itself, for the advisor's visitor panel (issue 60). A
   * store failure here loses only that: the chat has started and its visitor is answered.
   */
  const recordContext = async (request: FastifyRequest, contactId: string) => {
    try {
      const { "user-agent": userAgent = "", "accept-language": acceptLanguage = "" } =
        request.headers;
      await recordVisitorContext(
        deps.db,
        contactId,
        { userAgent, acceptLanguage },
        isoAt(clock.now()),
      );
    } catch (err) {
      request.log.warn({ err, contactId }, "the visitor's browser context was not recorded");
    }
  };

  await visitorPageRoute(app, {
    deps,
    clock,
    requireInstance,
    take: (participantId) => reportLimiter.take(participantId),
  });

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
      // Counted once the start is well formed and names a real instance and flow (malformed
      // ones are refused cheaply above and start nothing), before the jwt is verified or
      // anything is written; a refused jwt still counts, so guessing jwts is throttled too.
      await startChatThrottle.take(request.ip, body.InstanceId);
      const verified = body.Jwt === undefined ? {} : await visitorJwt.verify(body.Jwt, clock.now());
      const signed = jwtAttributes(verified);
      const subject = visitorSubject(verified);
      // The integrator's attributes only for keys the operator allows; the signed jwt's win.
      const integrator = Object.fromEntries(
        Object.entries(body.Attributes ?? {}).filter(([key]) => allowedAttributes.has(key)),
      );
      const started = await startChat({
        instanceId: body.InstanceId,
        contactFlowId: body.ContactFlowId,
        displayName: body.ParticipantDetails.DisplayName,
        supportedContentTypes: body.SupportedMessagingContentTypes ?? [],
        attributes: { ...integrator, ...signed },
        attributeSources: {
          ...Object.fromEntries(Object.keys(integrator).map((k) => [k, "page" as const])),
          ...Object.fromEntries(Object.keys(signed).map((k) => [k, "jwt" as const])),
        },
        ...(body.ChatDurationInMinutes ? { durationMinutes: body.ChatDurationInMinutes } : {}),
        ...(subject === undefined ? {} : { visitorSubject: subject }),
        ...(body.PersistentChat
          ? { persistentChat: persistentChat(body.PersistentChat, clock.now()) }
          : {}),
        ...(body.InitialMessage
          ? {
              initialMessage: {
                contentType: body.InitialMessage.ContentType,
                content: body.InitialMessage.Content,
              },
            }
          : {}),
      }).catch(countRefusal);
      await recordContext(request, started.contactId);
      // Its token's caller, kept: CreateParticipantConnection comes next (CallerCache).
      if (started.started) {
        const hash = hashToken(started.participantToken);
        deps.callers.set("participant", hash, started.started, Infinity, clock.now());
      }
      return {
        data: {
          startChatResult: {
            ContactId: started.contactId,
            ParticipantId: started.participantId,
            ParticipantToken: started.participantToken,
            ...(started.continuationToken ? { ContinuationToken: started.continuationToken } : {}),
            ...(started.continuedFromContactId
              ? { ContinuedFromContactId: started.continuedFromContactId }
              : {}),
          },
          featurePermissions: { ATTACHMENTS: config.attachmentsEnabled },
        },
      };
    },
  );

  /**
   * The order-number report (docs/product.md §7.3). Only the contact's own customer may send it, proved
   * by their ParticipantToken in X-Amz-Bearer; it only adds attribute keys the contact does not
   * have yet (the signed jwt's stand), up to MAX_CONTACT_ATTRIBUTES in all, and never the
   * customer's name the advisor sees. Rate limited as the customer's participant requests.
   */
  app.post<{ Body: DiscussedOrderNumberRequest }>(
    GatewayPath.DiscussedOrderNumber,
    { schema: { body: discussedOrderNumberBody } },
    async (request) => {
      const { InstanceId, InitialContactId, Attributes } = request.body;
      requireInstance(InstanceId);
      const caller = await findCallerByToken(
        deps.db,
        null,
        hashToken(bearer(request)),
        isoAt(clock.now()),
      );
      const contact = caller?.contact;
      if (
        !caller ||
        caller.participant.role !== "CUSTOMER" ||
        !contact ||
        contact.instanceId !== InstanceId ||
        (contact.contactId !== InitialContactId && contact.initialContactId !== InitialContactId)
      ) {
        throw Errors.accessDenied("Only the contact's customer may report its order number.");
      }
      // Counted with the customer's participant requests (RATE_LIMIT_BURST/_PER_SECOND).
      await reportLimiter.take(caller.participant.participantId);
      if (contact.status !== "active")
        throw Errors.conflict(`Contact ${InitialContactId} has ended.`);
      const updates = Object.fromEntries(
        Object.entries(Attributes).filter(
          ([key]) => contact.attributes[key] === undefined && !FIXED_ATTRIBUTES.has(key),
        ),
      );
      if (Object.keys(updates).length > 0)
        await centre.updateAttributes(contact.contactId, updates, "report");
      return { ok: true };
    },
  );
}

/** Attributes a report never sets: the name the advisor knows the customer by. */
const FIXED_ATTRIBUTES = new Set(["customerName"]);
