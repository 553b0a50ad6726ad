/**
 * Which view of the console is shown (issue 60), kept in the address's fragment so a view and
 * a past conversation can be linked to: `#/` the chats, `#/history` the History view,
 * `#/history/<contactId>` a conversation opened in it. The fragment is the one owner; the
 * browser's back and forward move through it.
 */
import { useCallback, useEffect, useState } from "react";

export type Route = { view: "chats" } | { view: "history"; contactId: string | null };

export function parseRoute(hash: string): Route {
  const match = /^#\/history(?:\/([^/]+))?\/?$/.exec(hash);
  if (!match) return { view: "chats" };
  try {
    return { view: "history", contactId: match[1] ? decodeURIComponent(match[1]) : null };
  } catch {
    return { view: "history", contactId: null };
  }
}

export const routeHash = (route: Route): string =>
  route.view === "chats"
    ? "#/"
    : `#/history${route.contactId ? `/${encodeURIComponent(route.contactId)}` : ""}`;

export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  const go = useCallback((next: Route) => {
    window.location.hash = routeHash(next);
    setRoute(next);
  }, []);
  return [route, go];
}
