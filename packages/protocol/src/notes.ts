/**
 * Internal notes (issue 60): advisors' notes on a conversation, which the visitor never sees.
 * They live in a table of their own and travel only through the agent API and the advisors'
 * events stream, never as transcript items, never to a participant.
 *
 * `POST /agent-api/contacts/:contactId/notes` — the advisor holding the live chat writes one;
 * `GET` — the holder of a live chat, or any signed-in advisor once it has ended, reads them.
 * `@username` in a note tells that advisor (`event: mention` on their events stream).
 */
export const NotesApiPath = {
  Notes: "/agent-api/contacts/:contactId/notes",
} as const;

/** The most characters of a note. */
export const NOTE_MAX = 4000;

export interface NewNoteRequest {
  Body: string;
  /** Idempotency: the same token from the same advisor on the same chat gives the first note again. */
  ClientToken?: string;
}

export interface Note {
  NoteId: string;
  ContactId: string;
  AdvisorId: string;
  AdvisorName: string;
  Body: string;
  CreatedAt: string;
  /** The advisor's wrap-up of the ended conversation (issue 60), not a note written during it. */
  WrapUp?: boolean;
  /** Usernames of the advisors the note mentions (and told). */
  Mentions: string[];
}

export interface NotesResponse {
  /** Oldest first. */
  Notes: Note[];
}

/** The events stream's `mention`: another advisor mentioned you in a note. */
export interface MentionEvent {
  ContactId: string;
  NoteId: string;
  /** The name of the advisor who wrote it. */
  From: string;
  /** The note's first characters. */
  Excerpt: string;
}
