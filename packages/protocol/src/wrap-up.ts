/**
 * Tags and wrap-up (issue 60): what an advisor records about a conversation, never shown to the
 * visitor. Tags are free words with suggestions from the team's tags; the advisor holding a
 * live chat, or any signed-in advisor once it has ended, reads and sets them. The wrap-up is an
 * optional note the advisor who held the chat last writes once it has ended (after-contact
 * work); it stands among the chat's notes and is searched with them.
 *
 *   GET /agent-api/contacts/:contactId/tags     → TagsResponse
 *   PUT /agent-api/contacts/:contactId/tags     TagsRequest → TagsResponse (the whole set)
 *   GET /agent-api/tags?Prefix=                  → TagSuggestionsResponse
 *   PUT /agent-api/contacts/:contactId/wrap-up  WrapUpRequest → Note (one per conversation)
 */
export const WrapUpApiPath = {
  Tags: "/agent-api/contacts/:contactId/tags",
  Suggestions: "/agent-api/tags",
  WrapUp: "/agent-api/contacts/:contactId/wrap-up",
} as const;

export const TagLimits = {
  /** Characters of a tag, once trimmed (spaces inside become one; stored in lower case). */
  TAG_MAX: 40,
  /** Tags on one conversation. */
  PER_CONVERSATION: 20,
  /** Suggestions given. */
  SUGGESTIONS: 20,
} as const;

/** The most characters of a wrap-up note (as a note's). */
export const WRAP_UP_MAX = 4000;

export interface TagsRequest {
  Tags: string[];
}

export interface TagsResponse {
  ContactId: string;
  /** In alphabetical order. */
  Tags: string[];
}

export interface TagSuggestionsResponse {
  /** The team's tags beginning with the prefix, the most used first. */
  Tags: { Tag: string; Uses: number }[];
}

export interface WrapUpRequest {
  Body: string;
}

/** A tag as stored: trimmed, inner spaces made one, lower case; "" when nothing is left. */
export const normalTag = (tag: string): string => tag.trim().replace(/\s+/g, " ").toLowerCase();
