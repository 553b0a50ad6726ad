/**
 * A past conversation as a plain-text file an advisor can keep (issue 60, History): one line
 * per message, attachment and event, oldest first, each with its date and time and who wrote it.
 */
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import { EVENT_TEXT, senderLabel } from "../components/TranscriptItem.js";

const stamp = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace("T", " ").slice(0, 19) + " UTC";
};

function line(item: Item, customerName: string): string | null {
  const who = senderLabel(item, "", customerName);
  const event = EVENT_TEXT[item.ContentType ?? ""];
  if (event) return event(who);
  if (item.Type === ItemType.ATTACHMENT)
    return `${who}: [${item.Attachments?.map((a) => a.AttachmentName).join(", ") ?? "attachment"}]`;
  if (item.Type !== ItemType.MESSAGE) return null;
  if (item.ContentType === ContentType.INTERACTIVE_MESSAGE) return `${who}: [interactive message]`;
  return `${who}: ${item.Content ?? ""}`;
}

export function transcriptText(items: readonly Item[], customerName: string): string {
  const lines: string[] = [];
  for (const item of items) {
    const text = line(item, customerName);
    if (text !== null) lines.push(`[${stamp(item.AbsoluteTime)}] ${text}`);
  }
  return lines.join("\n") + "\n";
}

/** The browser saves `text` as `name`. */
export function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
