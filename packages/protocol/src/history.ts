/**
 * The team's history through the agent API (issue 60): a visitor's earlier conversations and
 * the read-only transcript of a conversation. Read by the advisor holding the live chat, or by
 * any signed-in advisor once it has ended; anyone else gets 404, a missing token 403.
 */
import type { Item } from "./items.js";

export const HistoryApiPath = {
  /** GET: the earlier ended conversations of this chat's visitor (their verified jwt subject). */
  Earlier: "/agent-api/contacts/:contactId/earlier",
  /** GET `?after=<Seq>`: a page of the conversation's transcript, oldest first. */
  Transcript: "/agent-api/contacts/:contactId/transcript",
} as const;

/** The most earlier conversations listed, newest first. */
export const EARLIER_CONVERSATIONS_MAX = 20;
/** The most characters of an earlier conversation's first line. */
export const FIRST_LINE_MAX = 200;
/** Transcript items in one page. */
export const TRANSCRIPT_PAGE_SIZE = 500;

export interface EarlierConversation {
  ContactId: string;
  StartedAt: string;
  EndedAt: string;
  /** The first advisor who joined it; absent when only the bot answered. */
  AdvisorName?: string;
  /** The visitor's first message (not an echo of the bot), cut to FIRST_LINE_MAX. */
  FirstLine?: string;
}

export interface EarlierConversationsResponse {
  /** Newest first; empty when the visitor is not known by a verified jwt subject. */
  Conversations: EarlierConversation[];
}

export interface ConversationTranscriptResponse {
  Items: Item[];
  /** The `after` of the next page, when there is one. */
  NextAfter?: number;
}
