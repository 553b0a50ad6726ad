/**
 * A transcript's log: a focusable polite live region holding a list of entries, scrolled to the
 * newest. A long one (past LONG_TRANSCRIPT entries, or while older pages remain) keeps a window
 * of its entries in the DOM (issue 61), the widget's TranscriptWindow: a chat of thousands of
 * messages stays a few hundred nodes, Home and End on the log reach the oldest and the newest.
 * The window is a chunk of its own, loaded the first time a transcript is long; until it is
 * there the log shows the newest entries.
 */
import { lazy, Suspense, useLayoutEffect, useRef, useState, type ReactNode } from "react";

const TranscriptWindow = lazy(() =>
  import("@chat-widget/widget/transcript-window").then((m) => ({ default: m.TranscriptWindow })),
);

/** Past this many entries the log shows a window of them. */
export const LONG_TRANSCRIPT = 200;
/** While the window's chunk loads, the log shows this many of the newest entries. */
const WHILE_LOADING = 100;

export interface TranscriptLogProps {
  /** How many entries there are, and the newest one's key (the same with more: older came). */
  count: number;
  newest: string;
  /** The entries [from, to), as list items. */
  render(from: number, to: number): ReactNode;
  /** Load the page before the oldest entry (set while there is one). */
  onOlder?: (() => void) | undefined;
  /** That page is being read: the log is busy, and says so above its entries. */
  loadingOlder?: boolean;
  /** Changes, beside a new entry, that scroll the log to the newest (a message written…). */
  follow?: string;
  /** List items after the entries (messages still sending). */
  after?: ReactNode;
  /** Below the list (the typing indicator, a note). */
  children?: ReactNode;
}

/** What the log shows while the window's chunk loads: it is busy meanwhile. */
function WhileLoading({ busy, children }: { busy: (busy: boolean) => void; children: ReactNode }) {
  useLayoutEffect(() => {
    busy(true);
    return () => busy(false);
  }, [busy]);
  return children;
}

export function TranscriptLog({
  count,
  newest,
  render,
  onOlder,
  loadingOlder = false,
  follow = "",
  after,
  children,
}: TranscriptLogProps) {
  const log = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  // Off while the window shows older entries: entries moving into it are not arrivals.
  const [live, setLive] = useState(true);
  const [busy, setBusy] = useState(false);
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
      aria-busy={busy || loadingOlder || undefined}
      tabIndex={0}
      aria-label="Transcript"
    >
      {loadingOlder && <p className="older-loading">Loading earlier messages…</p>}
      <ol ref={list}>
        {onOlder || count > LONG_TRANSCRIPT ? (
          <Suspense
            fallback={
              <WhileLoading busy={setBusy}>
                {render(Math.max(0, count - WHILE_LOADING), count)}
              </WhileLoading>
            }
          >
            <TranscriptWindow
              count={count}
              newest={newest}
              onOlder={onOlder}
              scroller={log}
              rows={list}
              render={render}
              onLive={setLive}
            />
          </Suspense>
        ) : (
          render(0, count)
        )}
        {after}
      </ol>
      {children}
    </div>
  );
}
