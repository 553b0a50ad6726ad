/**
 * What the visitor's choice in a template sends (docs/protocol.md §6.8, as the hosted widget
 * does: `text/plain`), and how the widget shows a sent choice: a time slot as its day and time,
 * a carousel card's option as the option's title.
 */
import { carouselSelection, isSlotDate } from "@chat-widget/protocol";

/** A carousel card's option, as the hosted widget sends it. */
export const carouselChoice = (
  templateIdentifier: string,
  listTitle: string,
  selectionText: string,
): string => JSON.stringify({ templateIdentifier, listTitle, selectionText });

/** A slot's day and time in the visitor's language and time zone: "Mon 30 Nov, 09:00". */
export const slotTime = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));

/** A sent message as the visitor reads it: a choice as what was chosen, anything else as written. */
export function shownChoice(text: string, locale: string): string {
  if (isSlotDate(text)) return slotTime(text, locale);
  return carouselSelection(text) ?? text;
}
