/**
 * A transcript's log: a focusable polite live region holding a list of entries, scrolled to the
 * newest. A long one (past LONG_TRANSCRIPT entries, or while older pages remain) keeps a window
 * of its entries in the DOM (issue 61), the widget's TranscriptWindow: a chat of thousands of
 * messages stays a few hundred nodes, Home and End on the log reach the oldest and the newest.
 */
import { TranscriptWindow } from "@chat-widget/widget/transcript-window";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";

/** Past this many entries the log shows a window of them. */
export const LONG_TRANSCRIPT = 200;

export interface TranscriptLogProps {
  /** How many entries there are, and the newest one's key (the same with more: older came). */
  count: number;
  newest: string;
  /** The entries [from, to), as list items. */
  render(from: number, to: number): ReactNode;
  /** Load the page before the oldest entry (set while there is one). */
  onOlder?: (() => void) | undefined;
  /** Changes, beside a new entry, that scroll the log to the newest (a message written…). */
  follow?: string;
  /** List items after the entries (messages still sending). */
  after?: ReactNode;
  /** Below the list (the typing indicator, a note). */
  children?: ReactNode;
}

export function TranscriptLog({
  count,
  newest,
  render,
  onOlder,
  follow = "",
  after,
  children,
}: TranscriptLogProps) {
  const log = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  // Off while the window shows older entries: entries moving into it are not arrivals.
  const [live, setLive] = useState(true);
  useLayoutEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest, follow]);
  return (
    <div
      className="transcript"
      ref={log}
      role="log"
      aria-live={live ? "polite" : "off"}
      tabIndex={0}
      aria-label="Transcript"
    >
      <ol ref={list}>
        {onOlder || count > LONG_TRANSCRIPT ? (
          <TranscriptWindow
            count={count}
            newest={newest}
            onOlder={onOlder}
            scroller={log}
            rows={list}
            render={render}
            onLive={setLive}
          />
        ) : (
          render(0, count)
        )}
        {after}
      </ol>
      {children}
    </div>
  );
}
