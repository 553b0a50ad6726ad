/**
 * The team's history in the agent API (wire types: @chat-widget/protocol history.ts): the
 * closed conversations, filtered, a page at a time (any signed-in advisor); a visitor's earlier
 * conversations; and a conversation's transcript read-only, page by page. Who may read a
 * conversation: agents/chat-access.ts (the holder of a live chat; anyone signed in once ended).
 */
import {
  HistoryApiPath,
  TRANSCRIPT_PAGE_SIZE,
  HISTORY_PAGE_SIZE,
  HISTORY_VISITOR_MAX,
  HISTORY_SEARCH_MAX,
  type HistoryAdvisorsResponse,
  type HistoryQuery,
  type HistoryResponse,
  type ConversationTranscriptResponse,
  type EarlierConversationsResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { readableChat } from "../agents/chat-access.js";
import { contactParams } from "../agents/schemas.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { readPage } from "../contact-centre/items-repo.js";
import { bearerToken } from "../http/bearer.js";
import type { Db } from "../store/db.js";
import { historyAdvisors, listConversations } from "./conversations-repo.js";
import { earlierConversations } from "./earlier-repo.js";
import { cursorOf, historyFilter } from "./list-query.js";
import { checkSearch, withSearchTimeout } from "./search.js";

export interface HistoryRoutesOptions {
  db: Db;
  centre: ContactCentre;
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
}

const transcriptQuery = {
  type: "object",
  additionalProperties: false,
  properties: { after: { type: "integer", minimum: 0, maximum: 2_147_483_647 } },
} as const;

const historyQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    From: { type: "string", maxLength: 40 },
    To: { type: "string", maxLength: 40 },
    AdvisorId: { type: "string", maxLength: 64 },
    Visitor: { type: "string", maxLength: HISTORY_VISITOR_MAX },
    Search: { type: "string", maxLength: HISTORY_SEARCH_MAX },
    Tag: { type: "string", maxLength: 100 },
    Before: { type: "string", maxLength: 400 },
  },
} as const;

type ContactRoute = { Params: { contactId: string } };

/** Registered in the agent API's scope (its error handler and input guards apply). */
export async function historyRoutes(
  app: FastifyInstance,
  options: HistoryRoutesOptions,
): Promise<void> {
  const { db, centre } = options;
  const readable = async (request: FastifyRequest, contactId: string) =>
    readableChat(db, centre, await options.authenticate(bearerToken(request)), contactId);

  app.get<{ Querystring: HistoryQuery }>(
    HistoryApiPath.List,
    { schema: { querystring: historyQuery } },
    async (request): Promise<HistoryResponse> => {
      await options.authenticate(bearerToken(request));
      const filter = historyFilter(request.query);
      if (filter.search) await checkSearch(db, filter.search);
      const rows = await withSearchTimeout(db, (tx) => listConversations(tx, filter));
      const page = rows.slice(0, HISTORY_PAGE_SIZE);
      return {
        Conversations: page,
        ...(rows.length > HISTORY_PAGE_SIZE ? { Next: cursorOf(page.at(-1)!) } : {}),
      };
    },
  );

  app.get(HistoryApiPath.Advisors, async (request): Promise<HistoryAdvisorsResponse> => {
    await options.authenticate(bearerToken(request));
    return { Advisors: await historyAdvisors(db) };
  });

  app.get<ContactRoute>(
    HistoryApiPath.Earlier,
    { schema: { params: contactParams } },
    async (request): Promise<EarlierConversationsResponse> => {
      const contact = await readable(request, request.params.contactId);
      return { Conversations: await earlierConversations(db, contact.contactId) };
    },
  );

  app.get<ContactRoute & { Querystring: { after?: number } }>(
    HistoryApiPath.Transcript,
    { schema: { params: contactParams, querystring: transcriptQuery } },
    async (request): Promise<ConversationTranscriptResponse> => {
      const contact = await readable(request, request.params.contactId);
      const after = request.query.after;
      const rows = await readPage(db, {
        contactId: contact.contactId,
        direction: "FORWARD",
        ...(after === undefined ? {} : { from: { seq: after, inclusive: false } }),
        limit: TRANSCRIPT_PAGE_SIZE + 1,
      });
      const page = rows.slice(0, TRANSCRIPT_PAGE_SIZE);
      return {
        Items: page.map((r) => r.item),
        ...(rows.length > TRANSCRIPT_PAGE_SIZE ? { NextAfter: page.at(-1)!.seq } : {}),
      };
    },
  );
}
