/**
 * The History view's query (issue 60) as the store reads it: times checked, the visitor filter
 * made a LIKE pattern that matches it literally, and the page cursor (the last row's end time
 * and id, opaque to the caller) read back; anything malformed is a clear 400.
 */
import { normalTag, type HistoryConversation, type HistoryQuery } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import type { HistoryFilter } from "./conversations-repo.js";
import { wordsToMark } from "./search.js";

const time = (value: string | undefined, name: string): string | null => {
  if (value === undefined || value === "") return null;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at))
    throw Errors.validation(
      `${name} must be a date and time (ISO 8601), such as 2026-12-01T00:00:00Z.`,
    );
  return new Date(at).toISOString();
};

/** `%part%`, with LIKE's own characters (and the escape) taken literally. */
const like = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const cursorOf = (c: HistoryConversation): string =>
  Buffer.from(`${c.EndedAt}|${c.ContactId}`).toString("base64url");

function readCursor(value: string | undefined): HistoryFilter["before"] {
  if (value === undefined || value === "") return null;
  const [endedAt, contactId, ...rest] = Buffer.from(value, "base64url").toString().split("|");
  if (!endedAt || !contactId || rest.length > 0 || Number.isNaN(Date.parse(endedAt)))
    throw Errors.validation("Before is not a page of this history: start again from the first.");
  return { endedAt, contactId };
}

export function historyFilter(q: HistoryQuery): HistoryFilter {
  const visitor = q.Visitor?.trim();
  const search = q.Search?.trim() ? q.Search.trim() : null;
  return {
    from: time(q.From, "From"),
    to: time(q.To, "To"),
    advisorId: q.AdvisorId || null,
    visitorLike: visitor ? like(visitor) : null,
    before: readCursor(q.Before),
    search,
    marked: search ? wordsToMark(search) : "",
    tag: q.Tag && normalTag(q.Tag) ? normalTag(q.Tag) : null,
  };
}
