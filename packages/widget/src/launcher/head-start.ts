/**
 * A chat started before the app is there (issue 61): a click on the painted launcher, or the
 * host page's open(), starts it at once — verify, start-chat, the order-number report — while
 * chat-app.js downloads; the app's controller then takes it instead of starting its own.
 */
import type { StartChatResult } from "@chat-widget/protocol";

export interface HeadStart {
  /** Start the chat for this jwt, unless one is already under way. */
  begin(jwt: string | undefined): void;
  /** The chat started for this jwt, once (null: none, or for another jwt, which is dropped). */
  take(jwt: string | undefined): Promise<StartChatResult> | null;
}

export function headStart(start: (jwt: string | undefined) => Promise<StartChatResult>): HeadStart {
  let pending: { jwt: string | undefined; chat: Promise<StartChatResult> } | null = null;
  return {
    begin(jwt) {
      if (pending) return;
      const chat = start(jwt);
      const started = { jwt, chat };
      // A start that failed is dropped: the controller starts afresh (and shows its failure).
      chat.catch(() => {
        if (pending === started) pending = null;
      });
      pending = started;
    },
    take(jwt) {
      const started = pending;
      pending = null;
      return started && started.jwt === jwt ? started.chat : null;
    },
  };
}
