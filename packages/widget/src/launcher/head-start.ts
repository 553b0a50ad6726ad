/**
 * A chat started before the app is there (issue 61): a click on the painted launcher, or the
 * host page's open(), starts it at once — verify, start-chat, the order-number report — while
 * chat-app.js downloads; the app's controller then takes it instead of starting its own.
 */
import type { StartChatResult } from "@chat-widget/protocol";

export interface HeadStart {
  /** Start the chat for this jwt, unless one is already under way (one that failed is retried). */
  begin(jwt: string | undefined): void;
  /**
   * The chat started for this jwt, once, failed or not (its failure is then the controller's to
   * show); null when none was, or for another jwt (that one is dropped).
   */
  take(jwt: string | undefined): Promise<StartChatResult> | null;
  /** Drop the chat begun: the host page's forget() (a log-out) came first. */
  discard(): void;
}

/**
 * `start` begins a chat; `drop` is given each one begun that nobody takes (another jwt, or
 * discarded), to end it.
 */
export function headStart(
  start: (jwt: string | undefined) => Promise<StartChatResult>,
  drop: (chat: Promise<StartChatResult>) => void = () => {},
): HeadStart {
  let pending: { jwt: string | undefined; chat: Promise<StartChatResult>; failed: boolean } | null =
    null;
  return {
    begin(jwt) {
      if (pending && !pending.failed) return;
      const started = { jwt, chat: start(jwt), failed: false };
      // Never an unhandled rejection while it waits to be taken; a later click starts afresh.
      started.chat.catch(() => (started.failed = true));
      pending = started;
    },
    take(jwt) {
      const started = pending;
      pending = null;
      if (started && started.jwt === jwt) return started.chat;
      if (started) drop(started.chat);
      return null;
    },
    discard() {
      if (pending) drop(pending.chat);
      pending = null;
    },
  };
}
