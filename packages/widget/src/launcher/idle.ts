/**
 * `data-preload="idle"` (issue 61): a site that would rather have the chat ready than save its
 * visitors the download loads the rest once the page has loaded and the browser is idle,
 * instead of waiting for the visitor's intent.
 */

/** Longest wait for an idle moment after the page's load (a page that is never idle). */
export const IDLE_TIMEOUT_MS = 5_000;

/** What of `window` this needs (a test gives its own). */
export interface IdleWindow {
  readonly document: Pick<Document, "readyState">;
  addEventListener(type: "load", listener: () => void, options: { once: true }): void;
  requestIdleCallback?: (run: () => void, options: { timeout: number }) => unknown;
  setTimeout(run: () => void, ms: number): unknown;
}

/** Run `run` once, after the page's load event, when the browser is idle (or soon, without idle callbacks). */
export function whenIdle(win: IdleWindow, run: () => void): void {
  const idle = () => {
    if (win.requestIdleCallback) win.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    else win.setTimeout(run, 0);
  };
  if (win.document.readyState === "complete") idle();
  else win.addEventListener("load", idle, { once: true });
}
