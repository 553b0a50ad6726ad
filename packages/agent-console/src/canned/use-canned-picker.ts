/**
 * The canned-response picker's state (issue 60): open while the composer's text is `/` and a
 * word, filtered as the advisor types; arrow keys move through the matches, Enter takes one
 * (filled in, still editable), Escape closes it until the text changes.
 */
import type { CannedResponse } from "@chat-widget/protocol";
import { useState, type KeyboardEvent } from "react";
import { matchCanned } from "./fill.js";

/** What the composer's text asks for: the query after `/`, or null when it is not one. */
export const cannedQuery = (text: string): string | null =>
  /^\/[^\s]*$/.test(text) ? text.slice(1) : null;

export function useCannedPicker(
  text: string,
  responses: readonly CannedResponse[],
  take: (response: CannedResponse) => void,
) {
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const query = cannedQuery(text);
  const open = query !== null && responses.length > 0 && closedFor !== text;
  const matches = open ? matchCanned(responses, query) : [];
  const current = Math.min(active, Math.max(matches.length - 1, 0));

  /** Handles the key when the picker wants it (true: the composer must not). */
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (matches.length === 0) return false;
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((current + step + matches.length) % matches.length);
      return true;
    }
    if (e.key === "Enter" && !e.shiftKey && matches[current]) {
      e.preventDefault();
      take(matches[current]);
      setActive(0);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      setClosedFor(text);
      return true;
    }
    return false;
  };
  return { open, matches, active: current, onKey, choose: take, reset: () => setActive(0) };
}
