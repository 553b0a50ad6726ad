/**
 * The transcript as a plain-text file the visitor can keep once the chat has ended (issue 24):
 * one line per entry, oldest first, each with its time and who wrote it.
 */
import { ExtraText, Text } from "../texts.js";
import type { Entry } from "./entries.js";

function speaker(entry: Entry): string {
  if (entry.participantRole === "customer") return ExtraText.YOU;
  return entry.displayName || (entry.participantRole === "agent" ? Text.ADVISOR : "");
}

function body(entry: Entry): string {
  switch (entry.kind) {
    case "text":
      return entry.delivery === "failed"
        ? `${entry.content} (${ExtraText.NOT_SENT})`
        : entry.content;
    case "listPicker": {
      const { title, elements } = entry.content.data.content;
      return [title, ...elements.map((e) => `- ${e.title}`)].join("\n");
    }
    case "attachment":
      return `[${entry.attachment.name}]`;
    case "event":
      return entry.content;
  }
}

/** `time` formats an ISO time as the file shows it. */
export function transcriptText(entries: readonly Entry[], time: (iso: string) => string): string {
  return entries
    .map((entry) => {
      const when = entry.absoluteTime ? `[${time(entry.absoluteTime)}] ` : "";
      const who = entry.kind === "event" ? "" : speaker(entry);
      return `${when}${who ? `${who}: ` : ""}${body(entry)}`;
    })
    .join("\n")
    .concat("\n");
}
