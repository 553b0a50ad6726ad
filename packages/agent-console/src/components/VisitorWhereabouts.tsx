/**
 * Where the visitor is, for the visitor panel (issue 60, 1b): the page they are on now (from
 * the widget's page reports) and their local time (from their time zone), kept current.
 */
import type { VisitorPage } from "@chat-widget/protocol";
import { useEffect, useState } from "react";

/** How often the visitor's local time is drawn again. */
export const LOCAL_TIME_TICK_MS = 30_000;

/** The page as a link that opens beside the console (its title, or its URL when it has none). */
export function PageLink({ page }: { page: VisitorPage }) {
  const safe = /^https?:\/\//i.test(page.Url);
  return (
    <>
      {safe ? (
        <a href={page.Url} target="_blank" rel="noopener noreferrer">
          {page.Title || page.Url}
        </a>
      ) : (
        page.Title || page.Url
      )}
      {page.Title && <span className="page-url">{page.Url}</span>}
    </>
  );
}

/** The time it is now where the visitor is, e.g. "14:32 (Europe/Berlin)". */
export function LocalTime({ timeZone, now = Date.now }: { timeZone: string; now?: () => number }) {
  const [at, setAt] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setAt(now()), LOCAL_TIME_TICK_MS);
    return () => clearInterval(timer);
  }, [now]);
  let text: string;
  try {
    text = new Intl.DateTimeFormat(undefined, { timeStyle: "short", timeZone }).format(at);
  } catch {
    return <>{timeZone}</>;
  }
  return (
    <>
      {text} <span className="time-zone">({timeZone})</span>
    </>
  );
}
