/**
 * The team's history through the agent API (issue 60): the closed conversations, filtered; a
 * visitor's earlier conversations; and the read-only transcript of a conversation. Read by the
 * advisor holding the live chat, or by any signed-in advisor once it has ended; anyone else
 * gets 404, a missing token 403.
 */
import type { Item } from "./items.js";

export const HistoryApiPath = {
  /** GET with HistoryQuery: the closed conversations, the last ended first, a page at a time. */
  List: "/agent-api/history",
  /** GET: every advisor who took part in a conversation (the History view's advisor filter). */
  Advisors: "/agent-api/history/advisors",
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

/** Conversations in one page of the history. */
export const HISTORY_PAGE_SIZE = 50;
/** The most characters of the visitor filter and of a search. */
export const HISTORY_VISITOR_MAX = 100;
export const HISTORY_SEARCH_MAX = 200;
/** The most words a search may look for (a longer one is a 400). */
export const HISTORY_SEARCH_WORDS = 12;

/** The history's filters (query parameters), each optional. */
export interface HistoryQuery {
  /** Started at or after this time (ISO 8601). */
  From?: string;
  /** Started before this time (ISO 8601). */
  To?: string;
  /** An advisor who took part. */
  AdvisorId?: string;
  /** Part of the visitor's name or e-mail, any case. */
  Visitor?: string;
  /** A tag the conversation has (as stored: lower case). */
  Tag?: string;
  /**
   * Words in the messages or notes ("Search conversations"): every word, any case, whole words;
   * "a phrase" in quotes, -word for without, `or` between alternatives.
   */
  Search?: string;
  /** The `Next` of the page before. */
  Before?: string;
}

export interface HistoryConversation {
  ContactId: string;
  StartedAt: string;
  EndedAt: string;
  CustomerName: string;
  CustomerEmail?: string;
  /** The advisors who took part, in the order they joined. */
  Advisors: { AdvisorId: string; Name: string }[];
  /** The visitor's first message (not an echo of the bot), cut to FIRST_LINE_MAX. */
  FirstLine?: string;
  /** Its tags, in alphabetical order. */
  Tags: string[];
  /** With Search: the words around the match, each match between <mark> and </mark>. */
  Snippet?: string;
}

export interface HistoryResponse {
  /** The last ended first. */
  Conversations: HistoryConversation[];
  /** Pass as `Before` for the next page; absent on the last. */
  Next?: string;
}

export interface HistoryAdvisorsResponse {
  /** By name; each with the name they last answered under. */
  Advisors: { AdvisorId: string; Name: string }[];
}
