/**
 * The transcript: incoming, outgoing and agent messages, bot templates and chat events.
 * Only text/markdown is rendered as markdown; plain text shows verbatim (neither runs HTML).
 */
import { Fragment, useLayoutEffect, useRef, useState } from "react";
import { ContentType } from "@chat-widget/protocol";
import type { Entry } from "../state/entries.js";
import { eventLine } from "../state/transcript-text.js";
import { useTexts } from "../texts-context.js";
import { advisorName } from "../texts.js";
import { useViews } from "../lazy-views/context.js";
import { LONG_TRANSCRIPT } from "../state/constants.js";
import { LazyAttachment, LazyChoice, LazyMarkdown, LazyTemplate } from "./lazy.js";
import { formatTime, showsTime, timeLocale } from "./message-time.js";
import { TypingIndicator } from "./TypingIndicator.js";

export interface TranscriptProps {
  entries: readonly Entry[];
  typing: boolean;
  /** The advisor typing, for "Sam is typing…" ("" for the bot's dots alone). */
  typingName?: string;
  botActive: boolean;
  onChoose: (title: string) => void;
  onRetry: (localId: string) => void;
  onDownload: (
    attachmentId: string,
    onProgress?: (fraction: number) => void,
  ) => Promise<Blob | null>;
  onThumbnail: (attachmentId: string) => Promise<Blob | null>;
  /** Load the page before the oldest entry (set while there is one). */
  onOlder?: (() => void) | undefined;
}

const RECEIPT_TEXT = { sent: "SENT", delivered: "DELIVERED", read: "READ" } as const;

/**
 * Under an outgoing message not stored yet: "Sending…", or "Not sent" with Retry; under the
 * visitor's last stored message: "Sent", "Delivered" or "Read" (issue 24).
 */
function DeliveryState({
  entry,
  last,
  onRetry,
}: {
  entry: Entry;
  last: boolean;
  onRetry: (localId: string) => void;
}) {
  const t = useTexts();
  if (entry.kind !== "text" || entry.participantRole !== "customer") return null;
  if (!entry.delivery) {
    if (!last) return null;
    return <div className="delivery">{t[RECEIPT_TEXT[entry.receipt ?? "sent"]]}</div>;
  }
  if (entry.delivery === "sending") return <div className="delivery">{t.SENDING}</div>;
  return (
    <div className="delivery failed" role="alert">
      {t.NOT_SENT}
      <button type="button" onClick={() => onRetry(entry.id)}>
        {t.RETRY}
      </button>
    </div>
  );
}

function EntryView({
  entry,
  botActive,
  onChoose,
  onDownload,
  onThumbnail,
}: { entry: Entry } & Omit<
  TranscriptProps,
  "entries" | "typing" | "typingName" | "onRetry" | "onOlder"
>) {
  const t = useTexts();
  if (entry.kind === "event") return <div className="event">{eventLine(entry, t)}</div>;
  if (entry.kind === "template")
    return <LazyTemplate content={entry.content} enabled={botActive} onChoose={onChoose} />;
  const outgoing = entry.participantRole === "customer";
  const agent = entry.participantRole === "agent";
  const className = `message ${outgoing ? "outgoing" : "incoming"}${agent ? " agent" : ""}`;
  // dir="auto": an Arabic or Hebrew message reads right to left whatever the page's language. On
  // the text itself, not an advisor's bubble, whose first letters are the advisor's name.
  return (
    <div className={className} data-role={entry.participantRole} dir={agent ? undefined : "auto"}>
      {agent && (
        <span className="name" dir="auto">
          {advisorName(entry.displayName, t)}
        </span>
      )}
      {entry.kind === "attachment" ? (
        <LazyAttachment
          attachment={entry.attachment}
          onDownload={onDownload}
          onThumbnail={onThumbnail}
        />
      ) : outgoing ? (
        <LazyChoice text={entry.content} />
      ) : (
        // A streamed answer is inert (hidden from screen readers, its links not focusable) while
        // it grows; complete, it is a new node in the live region, announced once, whole.
        <div
          key={entry.streaming ? "growing" : "complete"}
          inert={entry.streaming || undefined}
          dir="auto"
        >
          {entry.contentType === ContentType.TEXT_MARKDOWN ? (
            <LazyMarkdown text={entry.content} />
          ) : (
            <div className="plain">{entry.content}</div>
          )}
        </div>
      )}
    </div>
  );
}

const keyOf = (entry: Entry, i: number): string =>
  (entry.kind === "text" && entry.clientToken) || entry.id || `${entry.kind}-${i}`;

export function Transcript({
  entries,
  typing,
  typingName = "",
  botActive,
  onRetry,
  onOlder,
  ...rest
}: TranscriptProps) {
  const t = useTexts();
  const locale = timeLocale(t.LANG, navigator.languages);
  const ref = useRef<HTMLDivElement>(null);
  const views = useViews();
  // Off while a long transcript's window shows older entries (lazy-views/TranscriptWindow.tsx).
  const [live, setLive] = useState(true);
  // Only the latest list picker answers the active bot; earlier ones stay as history.
  const lastPicker = entries.findLastIndex((e) => e.kind === "template");
  const lastOwn = entries.findLastIndex(
    (e) => e.kind === "text" && e.participantRole === "customer" && !e.delivery,
  );
  // Scroll to the bottom on new messages, a streamed answer growing, or agent events.
  // Older entries coming before the oldest shown leave the newest as it is: no scroll then.
  const last = entries.at(-1);
  const newest = last ? keyOf(last, -1) : "";
  const grown = last?.kind === "text" ? last.content.length : 0;
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest, grown, typing]);
  const row = (entry: Entry, i: number) => (
    <Fragment key={keyOf(entry, i)}>
      <EntryView entry={entry} botActive={botActive && i === lastPicker} {...rest} />
      <DeliveryState entry={entry} last={i === lastOwn} onRetry={onRetry} />
      {showsTime(entries, i) && (
        <time
          className={`time ${entry.participantRole === "customer" ? "outgoing" : "incoming"}`}
          dateTime={entry.absoluteTime}
        >
          {formatTime(entry.absoluteTime, locale)}
        </time>
      )}
    </Fragment>
  );
  return (
    // Focusable, so a keyboard can scroll it (issue 24); a polite live region announces arrivals.
    <div
      className="transcript"
      ref={ref}
      role="log"
      aria-live={live ? "polite" : "off"}
      aria-label={t.MESSAGES}
      tabIndex={0}
    >
      {views && (onOlder || entries.length > LONG_TRANSCRIPT) ? (
        <views.TranscriptWindow
          count={entries.length}
          newest={newest}
          onOlder={onOlder}
          scroller={ref}
          render={(from, to) => entries.slice(from, to).map((entry, i) => row(entry, from + i))}
          onLive={setLive}
        />
      ) : (
        entries.map(row)
      )}
      {typing && <TypingIndicator name={typingName} />}
    </div>
  );
}
