/** One transcript item: a customer, bot or advisor message, an attachment, or a conversation event. */
import {
  carouselSelection,
  ContentType,
  ItemType,
  ParticipantRole,
  type Item,
  type Note,
} from "@chat-widget/protocol";
import { memo } from "react";
import type { Outgoing, ReceiptMark } from "../state/chat-state.js";
import { MessageText } from "./MessageText.js";
import { parseTemplate, TemplateView } from "./TemplateView.js";

export interface TranscriptItemProps {
  item: Item;
  ownParticipantId: string;
  customerName: string;
  receipt: ReceiptMark | undefined;
  /** Absent (a read-only past conversation): attachments are named, not offered for download. */
  download?(attachmentId: string, name: string): void;
}

export const EVENT_TEXT: Record<string, (name: string) => string> = {
  [ContentType.PARTICIPANT_JOINED]: (name) => `${name} has joined the chat`,
  [ContentType.PARTICIPANT_LEFT]: (name) => `${name} has left the chat`,
  [ContentType.CHAT_ENDED]: () => "Chat has ended!",
  [ContentType.TRANSFER_SUCCEEDED]: () => "The chat was transferred",
  [ContentType.TRANSFER_FAILED]: () => "The transfer failed",
  [ContentType.PARTICIPANT_IDLE]: (name) => `${name} is idle`,
  [ContentType.PARTICIPANT_RETURNED]: (name) => `${name} has returned`,
};

export function senderLabel(item: Item, ownParticipantId: string, customerName: string): string {
  if (item.ParticipantId === ownParticipantId) return "You";
  // The widget's display name is the role label; the contact's name says who it is.
  if (item.ParticipantRole === ParticipantRole.CUSTOMER)
    return customerName || item.DisplayName || "Customer";
  if (item.ParticipantRole === ParticipantRole.AGENT) return item.DisplayName || "Advisor";
  if (item.DisplayName === "BOT") return "Bot";
  return item.DisplayName && item.DisplayName !== "SYSTEM_MESSAGE" ? item.DisplayName : "System";
}

/** One formatter for every item (made once: a long transcript renders hundreds of times). */
const clock = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit" });

const time = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : clock.format(d);
};

/** Rendered again only when its own props change (a long transcript holds 150 of them). */
export const TranscriptItem = memo(function TranscriptItem({
  item,
  ownParticipantId,
  customerName,
  receipt,
  download,
}: TranscriptItemProps) {
  const who = senderLabel(item, ownParticipantId, customerName);
  if (item.Type === ItemType.EVENT || (item.ContentType && EVENT_TEXT[item.ContentType])) {
    const text = EVENT_TEXT[item.ContentType ?? ""];
    if (!text) return null;
    const name =
      item.ParticipantRole === ParticipantRole.CUSTOMER
        ? customerName || item.DisplayName || "Customer"
        : item.DisplayName || "Advisor";
    return <li className="event">{text(name)}</li>;
  }
  const own = item.ParticipantId === ownParticipantId;
  const kind = own ? "own" : item.ParticipantRole === ParticipantRole.CUSTOMER ? "customer" : "bot";
  return (
    <li className={`message ${kind}`} data-item-id={item.Id}>
      <div className="meta">
        <span className="who">{who}</span>{" "}
        <time dateTime={item.AbsoluteTime}>{time(item.AbsoluteTime)}</time>
      </div>
      <Body item={item} download={download} />
      {own && (
        <div className="receipt" data-receipt={receipt ?? "sent"}>
          {receipt === "read" ? "Read" : receipt === "delivered" ? "Delivered" : "Sent"}
        </div>
      )}
    </li>
  );
});

/** An internal note among the transcript's items, set apart: the visitor never sees it. */
export function NoteItem({ note }: { note: Note }) {
  return (
    <li className="note-item" data-note-id={note.NoteId}>
      <div className="meta">
        <span className="who">Note · {note.AdvisorName}</span>{" "}
        <time dateTime={note.CreatedAt}>{time(note.CreatedAt)}</time>
      </div>
      <MessageText text={note.Body} markdown={false} />
    </li>
  );
}

/** One of the advisor's messages not stored yet: "Sending…", or "Not sent" with Retry. */
export function OutgoingItem({
  message,
  retry,
}: {
  message: Outgoing;
  retry(clientToken: string): void;
}) {
  return (
    <li className={`message own ${message.state}`} data-client-token={message.clientToken}>
      <div className="meta">
        <span className="who">You</span>
      </div>
      <MessageText text={message.content} markdown />
      {message.state === "sending" ? (
        <div className="receipt" data-receipt="sending">
          Sending…
        </div>
      ) : (
        <div className="receipt" data-receipt="failed" role="alert">
          Not sent{" "}
          <button type="button" onClick={() => retry(message.clientToken)}>
            Retry
          </button>
        </div>
      )}
    </li>
  );
}

function Body({ item, download }: { item: Item; download?(id: string, name: string): void }) {
  if (item.Type === ItemType.ATTACHMENT) {
    return (
      <ul className="attachments">
        {(item.Attachments ?? []).map((a) => (
          <li key={a.AttachmentId}>
            <span className="file">📎 {a.AttachmentName}</span>{" "}
            {!download ? null : a.Status === "APPROVED" || a.Status === undefined ? (
              <button
                type="button"
                onClick={() => download(a.AttachmentId, a.AttachmentName)}
                aria-label={`Download ${a.AttachmentName}`}
              >
                Download
              </button>
            ) : (
              <span className="status">{a.Status === "REJECTED" ? "rejected" : "scanning…"}</span>
            )}
          </li>
        ))}
      </ul>
    );
  }
  if (item.ContentType === ContentType.INTERACTIVE_MESSAGE) {
    const template = parseTemplate(item.Content);
    if (!template) return <MessageText text={item.Content ?? ""} markdown={false} />;
    return <TemplateView template={template} />;
  }
  if (item.ContentType === ContentType.INTERACTIVE_RESPONSE) {
    return <MessageText text={interactiveResponseText(item.Content)} markdown={false} />;
  }
  // A visitor's carousel choice (docs/protocol.md §6.8) reads as the option chosen.
  const choice =
    item.ParticipantRole === ParticipantRole.CUSTOMER
      ? carouselSelection(item.Content ?? "")
      : null;
  return (
    <MessageText
      text={choice ?? item.Content ?? ""}
      markdown={item.ContentType === ContentType.TEXT_MARKDOWN}
    />
  );
}

function interactiveResponseText(content: string | undefined): string {
  try {
    const parsed = JSON.parse(content ?? "") as { data?: { title?: unknown }; action?: unknown };
    if (typeof parsed.data?.title === "string") return parsed.data.title;
  } catch {
    /* not JSON: show as is */
  }
  return content ?? "";
}
