/**
 * Tags and wrap-up in the agent API (wire types: @chat-widget/protocol wrap-up.ts). Tags: read
 * and set by whoever may read the conversation (agents/chat-access.ts: the holder of a live
 * chat, any signed-in advisor once it has ended); the team's tags are suggested to anyone signed
 * in. The wrap-up: written by the advisor who held the chat last, once it has ended; the
 * conversation's history row is built again so that it is searched with the rest.
 */
import { randomUUID } from "node:crypto";
import {
  normalTag,
  TagLimits,
  WRAP_UP_MAX,
  WrapUpApiPath,
  type Note,
  type TagSuggestionsResponse,
  type TagsRequest,
  type TagsResponse,
  type WrapUpRequest,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { readableChat } from "../agents/chat-access.js";
import { findAgentContact } from "../agents/queue-repo.js";
import { contactParams } from "../agents/schemas.js";
import { isoAt, type Clock } from "../clock.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { Errors } from "../errors.js";
import { rebuildConversation } from "../history/conversations-repo.js";
import { bearerToken } from "../http/bearer.js";
import { putWrapUp } from "../notes/notes-repo.js";
import type { Db } from "../store/db.js";
import { listTags, setTags, suggestTags } from "./tags-repo.js";

export interface WrapUpRoutesOptions {
  db: Db;
  centre: ContactCentre;
  clock: Clock;
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
}

const tagsBody = {
  type: "object",
  required: ["Tags"],
  additionalProperties: false,
  properties: {
    Tags: {
      type: "array",
      maxItems: TagLimits.PER_CONVERSATION * 2,
      items: { type: "string", maxLength: 100 },
    },
  },
} as const;

const wrapUpBody = {
  type: "object",
  required: ["Body"],
  additionalProperties: false,
  properties: { Body: { type: "string", minLength: 1, maxLength: WRAP_UP_MAX } },
} as const;

const suggestionsQuery = {
  type: "object",
  additionalProperties: false,
  properties: { Prefix: { type: "string", maxLength: TagLimits.TAG_MAX } },
} as const;

type ContactRoute = { Params: { contactId: string } };

/** The tags asked for, each normal, once; a clear 400 for an empty, long or odd one, or too many. */
function checkedTags(tags: string[]): string[] {
  const out = new Set<string>();
  for (const raw of tags) {
    const tag = normalTag(raw);
    if (!tag) throw Errors.validation("A tag needs a word.");
    if ([...tag].length > TagLimits.TAG_MAX)
      throw Errors.validation(`A tag has ${TagLimits.TAG_MAX} characters at most.`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(tag)) throw Errors.validation("A tag is a line of text.");
    out.add(tag);
  }
  if (out.size > TagLimits.PER_CONVERSATION)
    throw Errors.validation(`A conversation has ${TagLimits.PER_CONVERSATION} tags at most.`);
  return [...out].sort();
}

/** Registered in the agent API's scope (its error handler and input guards apply). */
export async function wrapUpRoutes(app: FastifyInstance, o: WrapUpRoutesOptions): Promise<void> {
  const readable = async (request: FastifyRequest, contactId: string) => {
    const advisor = await o.authenticate(bearerToken(request));
    return { advisor, contact: await readableChat(o.db, o.centre, advisor, contactId) };
  };

  app.get<ContactRoute>(
    WrapUpApiPath.Tags,
    { schema: { params: contactParams } },
    async (request): Promise<TagsResponse> => {
      const { contact } = await readable(request, request.params.contactId);
      return { ContactId: contact.contactId, Tags: await listTags(o.db, contact.contactId) };
    },
  );

  app.put<ContactRoute & { Body: TagsRequest }>(
    WrapUpApiPath.Tags,
    { schema: { params: contactParams, body: tagsBody } },
    async (request): Promise<TagsResponse> => {
      const { advisor, contact } = await readable(request, request.params.contactId);
      const tags = checkedTags(request.body.Tags);
      await setTags(o.db, contact.contactId, tags, advisor.AdvisorId, isoAt(o.clock.now()));
      return { ContactId: contact.contactId, Tags: tags };
    },
  );

  app.get<{ Querystring: { Prefix?: string } }>(
    WrapUpApiPath.Suggestions,
    { schema: { querystring: suggestionsQuery } },
    async (request): Promise<TagSuggestionsResponse> => {
      await o.authenticate(bearerToken(request));
      return { Tags: await suggestTags(o.db, normalTag(request.query.Prefix ?? "")) };
    },
  );

  app.put<ContactRoute & { Body: WrapUpRequest }>(
    WrapUpApiPath.WrapUp,
    { schema: { params: contactParams, body: wrapUpBody } },
    async (request): Promise<Note> => {
      const { advisor, contact } = await readable(request, request.params.contactId);
      if (contact.status !== "ended")
        throw Errors.conflict("The wrap-up is written once the chat has ended.");
      const held = await findAgentContact(o.db, contact.contactId);
      if (held?.advisorId !== advisor.AdvisorId)
        throw Errors.accessDenied("The wrap-up is written by the advisor who held the chat last.");
      if (!request.body.Body.trim()) throw Errors.validation("A wrap-up needs some text.");
      const note = await putWrapUp(o.db, {
        noteId: randomUUID(),
        contactId: contact.contactId,
        advisorId: advisor.AdvisorId,
        advisorName: advisor.Name,
        body: request.body.Body,
        createdAt: isoAt(o.clock.now()),
      });
      await rebuildConversation(o.db, contact.contactId);
      return note;
    },
  );
}
