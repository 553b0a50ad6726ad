/**
 * Internal notes in the agent API (wire types: @chat-widget/protocol notes.ts). The advisor
 * holding a live chat writes them; its holder, or any advisor once it has ended, reads them.
 * They are rows of contact_notes, never transcript items: nothing here reaches a participant.
 * Each advisor a note mentions (`@username`, signed up and not disabled) hears of it.
 */
import { randomUUID } from "node:crypto";
import {
  NOTE_MAX,
  NotesApiPath,
  type MentionEvent,
  type NewNoteRequest,
  type Note,
  type NotesResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AdvisorRecord } from "../agents/advisors-repo.js";
import { findAdvisorByUsername } from "../agents/advisors-repo.js";
import { AGENT_CHANNEL, type AgentChannelMessage } from "../agents/channel.js";
import { heldChat, readableChat } from "../agents/chat-access.js";
import { contactParams } from "../agents/schemas.js";
import { isoAt, type Clock } from "../clock.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { Errors } from "../errors.js";
import type { FanOut } from "../fanout/fanout.js";
import { bearerToken } from "../http/bearer.js";
import type { Db } from "../store/db.js";
import { mentionedUsernames } from "./mentions.js";
import { countNotes, insertNote, listNotes } from "./notes-repo.js";

/** The most notes one conversation keeps (bounded disk per chat). */
export const MAX_NOTES_PER_CONTACT = 1000;
/** The most characters of a note a mention carries. */
const EXCERPT_MAX = 140;

export interface NotesRoutesOptions {
  db: Db;
  centre: ContactCentre;
  fanout: FanOut;
  clock: Clock;
  authenticate(token: string | undefined): Promise<AdvisorRecord>;
  onError(error: unknown): void;
}

const newNoteBody = {
  type: "object",
  required: ["Body"],
  additionalProperties: false,
  properties: {
    Body: { type: "string", minLength: 1, maxLength: NOTE_MAX },
    ClientToken: { type: "string", minLength: 1, maxLength: 64 },
  },
} as const;

type ContactRoute = { Params: { contactId: string } };

/** Registered in the agent API's scope (its error handler and input guards apply). */
export async function notesRoutes(app: FastifyInstance, o: NotesRoutesOptions): Promise<void> {
  const signedIn = (request: FastifyRequest) => o.authenticate(bearerToken(request));

  /** The advisors a note mentions: known, not disabled, not its writer. */
  const mentioned = async (body: string, writer: AdvisorRecord) => {
    const found: AdvisorRecord[] = [];
    for (const username of mentionedUsernames(body)) {
      const advisor = await findAdvisorByUsername(o.db, username);
      if (advisor && !advisor.disabled && advisor.AdvisorId !== writer.AdvisorId)
        found.push(advisor);
    }
    return found;
  };

  const tell = async (advisors: AdvisorRecord[], note: Note) => {
    const mention: MentionEvent = {
      ContactId: note.ContactId,
      NoteId: note.NoteId,
      From: note.AdvisorName,
      Excerpt: [...note.Body].slice(0, EXCERPT_MAX).join(""),
    };
    for (const advisor of advisors) {
      const message: AgentChannelMessage = {
        kind: "mention",
        advisorId: advisor.AdvisorId,
        mention,
      };
      await o.fanout.publish(AGENT_CHANNEL, message).catch(o.onError);
    }
  };

  app.post<ContactRoute & { Body: NewNoteRequest }>(
    NotesApiPath.Notes,
    { schema: { params: contactParams, body: newNoteBody } },
    async (request): Promise<Note> => {
      const advisor = await signedIn(request);
      const contact = await heldChat(o.db, o.centre, advisor, request.params.contactId);
      const body = request.body.Body;
      if (!body.trim()) throw Errors.validation("A note needs some text.");
      if ((await countNotes(o.db, contact.contactId)) >= MAX_NOTES_PER_CONTACT)
        throw Errors.conflict(`This chat has ${MAX_NOTES_PER_CONTACT} notes, the most it keeps.`);
      const told = await mentioned(body, advisor);
      const { note, created } = await insertNote(o.db, {
        noteId: randomUUID(),
        contactId: contact.contactId,
        advisorId: advisor.AdvisorId,
        advisorName: advisor.Name,
        body,
        mentions: told.map((a) => a.Username),
        clientToken: request.body.ClientToken ?? null,
        createdAt: isoAt(o.clock.now()),
      });
      if (created) await tell(told, note);
      return note;
    },
  );

  app.get<ContactRoute>(
    NotesApiPath.Notes,
    { schema: { params: contactParams } },
    async (request): Promise<NotesResponse> => {
      const contact = await readableChat(
        o.db,
        o.centre,
        await signedIn(request),
        request.params.contactId,
      );
      return { Notes: await listNotes(o.db, contact.contactId) };
    },
  );
}
