/**
 * The page report (issue 60, 1b), in chat-views.js: while a chat runs, the contact centre
 * hears the page the visitor is on — when the chat starts or resumes on a page, and whenever
 * the page's URL or title changes (a single-page site's navigation included) — with their
 * time zone, for the advisor's visitor panel. Draws nothing. A report not taken is tried again
 * after PAGE_RETRY_MS; the server drops the query and fragment unless the site keeps them.
 */
import { VISITOR_PAGE_PATH, VisitorPageLimits } from "@chat-widget/protocol";
import { useEffect } from "react";
import type { Gateway } from "../gateway.js";
import type { ChatStorage } from "../session-storage.js";

/** How often the page's URL and title are compared with the last report. */
export const PAGE_CHECK_MS = 2_000;
/** How long after a report that was not taken the next try waits. */
export const PAGE_RETRY_MS = 15_000;

export interface PageReportProps {
  gateway: Gateway;
  /** Where the running chat is kept (its contact id and participant token). */
  storage: ChatStorage;
}

/** The page as reported: a URL too long loses its query and fragment, a title is cut. */
export function pageOf(href: string, title: string, timeZone: string | undefined) {
  let url = href;
  if (url.length > VisitorPageLimits.URL_MAX) url = url.replace(/[?#].*$/s, "");
  return {
    Url: url,
    Title: [...title.trim()].slice(0, VisitorPageLimits.TITLE_MAX).join(""),
    ...(timeZone ? { TimeZone: timeZone } : {}),
  };
}

export function PageReport({ gateway, storage }: PageReportProps) {
  useEffect(() => {
    let taken = "";
    let retryAt = 0;
    let busy = false;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const check = () => {
      const chat = storage.load()?.chat;
      const page = pageOf(location.href, document.title, timeZone);
      const key = JSON.stringify(page);
      if (!chat || busy || key === taken || Date.now() < retryAt) return;
      if (page.Url.length > VisitorPageLimits.URL_MAX) return;
      busy = true;
      void gateway
        .report(VISITOR_PAGE_PATH, chat, { ContactId: chat.ContactId, ...page })
        .catch(() => false)
        .then((ok) => {
          busy = false;
          if (ok) taken = key;
          else retryAt = Date.now() + PAGE_RETRY_MS;
        });
    };
    check();
    const timer = setInterval(check, PAGE_CHECK_MS);
    return () => clearInterval(timer);
  }, [gateway, storage]);
  return null;
}
