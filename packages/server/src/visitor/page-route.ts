/**
 * The widget's page report (issue 60, 1b; wire types in @chat-widget/protocol visitor.ts): the
 * page a running chat's visitor is on, for the advisor's visitor panel. Only the chat's own
 * customer may send it (their ParticipantToken in X-Amz-Bearer), only from the page itself (the
 * URL's origin is the request's Origin), rate limited with their participant requests. The
 * query and fragment are dropped unless the operator keeps them (VISITOR_PAGE_QUERY=on); user
 * name and password never kept. The advisor holding the chat hears of it (`event: visitor`).
 */
import {
  VISITOR_PAGE_PATH,
  VisitorPageLimits,
  type VisitorPageRequest,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { AGENT_CHANNEL, type AgentChannelMessage } from "../agents/channel.js";
import { findAgentContact } from "../agents/queue-repo.js";
import { isoAt, type Clock } from "../clock.js";
import { findCallerByToken } from "../contact-centre/participants-repo.js";
import { hashToken } from "../contact-centre/tokens.js";
import type { ServerDeps } from "../deps.js";
import { Errors } from "../errors.js";
import { originOf } from "../http/origin.js";
import { bearer } from "../participant/auth.js";
import { recordVisitorPage } from "./context-repo.js";

export const visitorPageBody = {
  type: "object",
  required: ["InstanceId", "ContactId", "Url"],
  additionalProperties: false,
  properties: {
    InstanceId: { type: "string", minLength: 1, maxLength: 100 },
    ContactId: { type: "string", minLength: 1, maxLength: 256 },
    Url: { type: "string", minLength: 1, maxLength: VisitorPageLimits.URL_MAX },
    Title: { type: "string", maxLength: VisitorPageLimits.TITLE_MAX },
    TimeZone: { type: "string", minLength: 1, maxLength: VisitorPageLimits.TIME_ZONE_MAX },
  },
} as const;

export interface VisitorPageOptions {
  deps: ServerDeps;
  clock: Clock;
  /** Refuses an instance this centre does not have (404). */
  requireInstance(instanceId: string): void;
  /** Counts one of the participant's requests (429 past their rate). */
  take(participantId: string): undefined | Promise<void>;
}

/**
 * The URL as kept: http(s) only, on the origin the request came from (`from`, its Origin
 * header), without user name and password, and without query and fragment unless `keepQuery`.
 */
export function pageUrl(raw: string, from: string | undefined, keepQuery: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw Errors.validation("Url must be an absolute http or https URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw Errors.validation("Url must be an absolute http or https URL.");
  if (from === undefined || originOf(from) !== url.origin)
    throw Errors.validation("Url must be on the page's own origin (the request's Origin header).");
  url.username = "";
  url.password = "";
  if (!keepQuery) {
    url.search = "";
    url.hash = "";
  }
  return url.href;
}

function timeZone(name: string | undefined): string | null {
  if (name === undefined) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw Errors.validation(`TimeZone ${JSON.stringify(name)} is not an IANA time zone.`);
  }
}

/** Registered inside the gateway's scope: its origin check, CORS and error handling apply. */
export async function visitorPageRoute(
  app: FastifyInstance,
  options: VisitorPageOptions,
): Promise<void> {
  const { deps, clock } = options;
  app.options(VISITOR_PAGE_PATH, async (_request, reply) => reply.code(204).send());
  app.post<{ Body: VisitorPageRequest }>(
    VISITOR_PAGE_PATH,
    { schema: { body: visitorPageBody } },
    async (request) => {
      const { InstanceId, ContactId, Url, Title = "", TimeZone } = request.body;
      options.requireInstance(InstanceId);
      const now = isoAt(clock.now());
      const caller = await findCallerByToken(deps.db, null, hashToken(bearer(request)), now);
      const contact = caller?.contact;
      if (
        !caller ||
        caller.participant.role !== "CUSTOMER" ||
        !contact ||
        contact.instanceId !== InstanceId ||
        contact.contactId !== ContactId
      ) {
        throw Errors.accessDenied("Only the chat's customer may report the page they are on.");
      }
      await options.take(caller.participant.participantId);
      if (contact.status !== "active") throw Errors.conflict(`Contact ${ContactId} has ended.`);
      const page = {
        url: pageUrl(Url, request.headers.origin, deps.config.visitorPageQuery),
        title: Title.trim(),
        timeZone: timeZone(TimeZone),
      };
      if (await recordVisitorPage(deps.db, ContactId, page, now)) {
        const held = await findAgentContact(deps.db, ContactId);
        if (held?.status === "active" && held.advisorId) {
          const message: AgentChannelMessage = {
            kind: "visitor",
            advisorId: held.advisorId,
            contactId: ContactId,
          };
          await deps.fanout.publish(AGENT_CHANNEL, message).catch((err: unknown) => {
            request.log.warn({ err }, "the visitor's page was not announced to the advisor");
          });
        }
      }
      return { ok: true };
    },
  );
}
