/**
 * `data-persistent-chat="on"` (issue 26): the widget remembers the visitor's last chat in local
 * storage, and the next chat it starts continues it (a persistent chat: yesterday's conversation
 * first, then today's). Without local storage (blocked, private mode) chats start afresh.
 *
 * What it remembers proves the chat the visitor's (issue 57): the contact id, its continuation
 * secret (ContinuationToken, kept here and sent only in start-chat's body) and the subject of the
 * jwt it was started with. A jwt of another subject (another visitor signed in, or one signed
 * out), or the host's `forget()` (a site's log-out), forgets it: that visitor starts afresh. A
 * jwt without a subject cannot tell one visitor from the next: such chats are not remembered.
 */
import type { Gateway, LastChat } from "./gateway.js";
import { decodeJwtSubject } from "./jwt.js";

export const LAST_CHAT_KEY = "chat-widget:last-contact";

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

interface Remembered extends LastChat {
  /** The jwt subject the chat was started with; null without one. */
  subject: string | null;
}

function isRemembered(value: unknown): value is Remembered {
  const v = value as Partial<Remembered> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.contactId === "string" &&
    typeof v.continuationToken === "string" &&
    (v.subject === null || typeof v.subject === "string")
  );
}

/** Storage that refuses (blocked, full) is as if it held nothing and took nothing. */
function attempt<T>(step: () => T, otherwise: T): T {
  try {
    return step();
  } catch {
    return otherwise;
  }
}

function recall(storage: StorageLike): Remembered | null {
  const raw = attempt(() => storage.getItem(LAST_CHAT_KEY), null);
  if (raw === null) return null;
  const value = attempt(() => JSON.parse(raw) as unknown, null);
  // Anything else (an older widget's bare contact id) proves nothing: forgotten.
  return isRemembered(value) ? value : null;
}

/** The gateway, its chats continuing the one remembered in `storage` (as is when null). */
export function withPersistentChat(gateway: Gateway, storage: StorageLike | null): Gateway {
  if (!storage) return gateway;
  const forget = () => attempt(() => storage.removeItem(LAST_CHAT_KEY), undefined);
  /** Counts forget() calls: a start under way when one came remembers nothing. */
  let forgotten = 0;
  return {
    ...gateway,
    async startChat(jwt) {
      const subject = decodeJwtSubject(jwt);
      const anonymous = jwt === undefined || jwt === "";
      const remembers = anonymous || subject !== null;
      const last = recall(storage);
      const mine = remembers && last !== null && last.subject === subject;
      if (!mine) forget();
      const before = forgotten;
      const chat = await gateway.startChat(jwt, mine ? last : undefined);
      if (remembers && forgotten === before && chat.ContinuationToken) {
        const next: Remembered = {
          contactId: chat.ContactId,
          continuationToken: chat.ContinuationToken,
          subject,
        };
        attempt(() => storage.setItem(LAST_CHAT_KEY, JSON.stringify(next)), undefined);
      }
      return chat;
    },
    forget() {
      forgotten++;
      forget();
      gateway.forget?.();
    },
  };
}
