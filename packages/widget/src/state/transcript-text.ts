/**
 * The transcript as a plain-text file the visitor can keep once the chat has ended (issue 24):
 * one line per entry, oldest first, each with its time and who wrote it.
 */
import { shownChoice } from "../lazy-views/templates/choice.js";
import { templateText } from "../lazy-views/templates/template-text.js";
import { advisorName, fill, type Texts } from "../texts.js";
import type { Entry, EventEntry } from "./entries.js";

function speaker(entry: Entry, t: Texts): string {
  if (entry.participantRole === "customer") return t.YOU;
  return entry.participantRole === "agent" ? advisorName(entry.displayName, t) : entry.displayName;
}

/** A joined, left or ended line in the visitor's language. */
export const eventLine = (entry: EventEntry, t: Texts): string =>
  fill(t[entry.event], { name: advisorName(entry.name, t) });

function body(entry: Entry, t: Texts): string {
  switch (entry.kind) {
    case "text": {
      const text =
        entry.participantRole === "customer" ? shownChoice(entry.content, t.LANG) : entry.content;
      return entry.delivery === "failed" ? `${text} (${t.NOT_SENT})` : text;
    }
    case "template":
      return templateText(entry.content, t.LANG);
    case "attachment":
      return `[${entry.attachment.name}]`;
    case "event":
      return eventLine(entry, t);
  }
}

/** `time` formats an ISO time as the file shows it. */
export function transcriptText(
  entries: readonly Entry[],
  time: (iso: string) => string,
  t: Texts,
): string {
  return entries
    .map((entry) => {
      const when = entry.absoluteTime ? `[${time(entry.absoluteTime)}] ` : "";
      const who = entry.kind === "event" ? "" : speaker(entry, t);
      return `${when}${who ? `${who}: ` : ""}${body(entry, t)}`;
    })
    .join("\n")
    .concat("\n");
}
