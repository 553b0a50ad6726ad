/**
 * A long transcript (issue 61): past LONG_TRANSCRIPT entries, or while older pages are still to
 * load, the transcript shows a window of at most WINDOW of them, so a chat of thousands of
 * messages keeps a few hundred nodes in the DOM.
 *
 * The window follows the newest entries (anchored at the bottom) until the visitor scrolls up:
 * near its top it takes STEP older entries and gives up as many newer ones, near its bottom the
 * reverse, keeping in place what the visitor was reading. Home and End on the transcript jump to
 * the oldest and the newest. A new entry brings the window back to the newest, as the spec's
 * transcript scrolls to the bottom on new messages.
 *
 * At the oldest entry it has, the window asks for the page before it (`onOlder`): a restored
 * chat shows its newest page first, and older ones as the visitor scrolls up.
 *
 * The transcript is a polite live region: while the visitor reads older entries it is turned off
 * (`onLive(false)`), so entries coming into the window as it moves are not announced as arrivals.
 *
 * The agent console's transcripts use it too (`@chat-widget/widget/transcript-window`, an alias
 * to this file): it imports nothing of the widget's but `useLatest`.
 */
import {
  Component,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from "react";
import { useLatest } from "../use-latest.js";

/** The most entries the window holds. */
export const WINDOW = 150;
/** How many entries the window moves by. */
export const STEP = 50;
/** How close (px) to the window's top or bottom the visitor scrolls before it moves. */
export const EDGE_PX = 200;

export interface TranscriptWindowProps {
  /** How many entries the transcript has. */
  count: number;
  /** The transcript's scrolling element (the log). */
  scroller: RefObject<HTMLElement | null>;
  /** The element whose children are the entries (a list inside the log); the log by default. */
  rows?: RefObject<HTMLElement | null>;
  /** The entries [from, to) as the transcript renders them. */
  render: (from: number, to: number) => ReactNode;
  /** Whether the log announces arrivals: only while the window holds the newest entries. */
  onLive: (live: boolean) => void;
  /** The newest entry's key: the same with more entries means older ones came before. */
  newest: string;
  /** Load the page before the oldest entry, when there is one (scrolled to the top, or Home). */
  onOlder?: () => void;
}

/** Where the window starts, or `null` while it follows the newest entries. */
type Start = number | null;

/** What to do with the scroll position once the window has moved. */
type Landing = "keep" | "top" | "bottom";

/** The first row showing at the log's top, and where it showed: kept there as rows change. */
type Kept = { node: Element; top: number };

const firstStart = (count: number, start: Start): number =>
  start === null ? Math.max(0, count - WINDOW) : Math.min(start, Math.max(0, count - WINDOW));

/** The first of the rows showing at the scroller's top, and where it shows. */
function visibleNode(scroller: HTMLElement, rows: HTMLElement): Kept | null {
  const top = scroller.getBoundingClientRect().top;
  for (const node of rows.children) {
    const box = node.getBoundingClientRect();
    if (box.bottom > top) return { node, top: box.top };
  }
  return null;
}

function landAt(el: HTMLElement, land: Landing, kept: Kept | null): void {
  if (land === "top") el.scrollTop = 0;
  else if (land === "bottom") el.scrollTop = el.scrollHeight;
  else if (kept?.node.isConnected) {
    // Only when it moved: setting scrollTop stops a smooth scroll (PageUp) under way.
    const moved = kept.node.getBoundingClientRect().top - kept.top;
    if (moved) el.scrollTop += moved;
  }
}

/**
 * Calls `before` as React is about to change the rows, when the DOM still shows what the reader
 * saw (getSnapshotBeforeUpdate: the one hook that runs then).
 */
class BeforeCommit extends Component<{ before: () => void; children: ReactNode }> {
  override getSnapshotBeforeUpdate() {
    this.props.before();
    return null;
  }
  override componentDidUpdate() {}
  override render() {
    return this.props.children;
  }
}

export function TranscriptWindow({
  count,
  newest,
  scroller,
  rows,
  render,
  onLive,
  onOlder,
}: TranscriptWindowProps) {
  const [start, setStart] = useState<Start>(null);
  const [seen, setSeen] = useState({ count, newest });
  const landing = useRef<Landing | null>("bottom");
  /** What showed at the log's top just before the rows changed: kept in place. */
  const kept = useRef<Kept | null>(null);
  const shape = useRef({ count, newest });
  let current = start;
  if (count !== seen.count || newest !== seen.newest) {
    // Older entries came before those shown: at the oldest (it asked for them), STEP of them come
    // into the window above what showed, which stays in place; elsewhere (read in the background)
    // the window keeps its entries. Anything else is a new entry: back to the newest, where the
    // log scrolls to.
    const older = count > seen.count && newest === seen.newest;
    const added = count - seen.count;
    current = older && start !== null ? Math.max(0, start + added - (start ? 0 : STEP)) : null;
    setSeen({ count, newest });
    setStart(current);
  }
  const from = firstStart(count, current);
  const to = Math.min(count, from + WINDOW);

  const move = (next: Start, land: Landing | null) => {
    // Already there (Home at the oldest): only the scroll position changes.
    if (next === current) return land && scroller.current && landAt(scroller.current, land, null);
    landing.current = land;
    setStart(next);
  };
  const latest = useLatest({ from, to, count, current, move, onOlder });

  useLayoutEffect(() => {
    const before = shape.current;
    shape.current = { count, newest };
    let land = landing.current;
    landing.current = null;
    if (count > before.count && newest === before.newest) land = "keep";
    if (scroller.current && land) landAt(scroller.current, land, kept.current);
  });
  const keep = () => {
    const el = scroller.current;
    kept.current = el && visibleNode(el, rows?.current ?? el);
  };

  const live = current === null;
  useEffect(() => onLive(live), [live, onLive]);
  useEffect(() => () => onLive(true), [onLive]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      const { from, to, count, current, move, onOlder } = latest.current;
      if (el.scrollTop < EDGE_PX) {
        if (from > 0) move(Math.max(0, from - STEP), "keep");
        else if (onOlder) {
          move(0, null);
          onOlder();
        }
      } else if (el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX) {
        const next = from + STEP;
        if (to < count) move(next + WINDOW >= count ? null : next, "keep");
        else if (current !== null) move(null, null);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      // The log's own Home and End (not a link's or a button's inside it).
      if (event.target !== el || event.altKey || event.metaKey || event.shiftKey) return;
      if (event.key !== "Home" && event.key !== "End") return;
      event.preventDefault();
      const { move, onOlder } = latest.current;
      if (event.key === "End") return move(null, "bottom");
      move(0, "top");
      onOlder?.();
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("keydown", onKey);
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("keydown", onKey);
    };
  }, [scroller, rows, latest]);

  return <BeforeCommit before={keep}>{render(from, to)}</BeforeCommit>;
}
