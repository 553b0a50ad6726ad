/**
 * `data-persistent-chat="on"` (issue 26): the widget remembers the visitor's last chat in local
 * storage, and the next chat it starts continues it (a persistent chat: yesterday's conversation
 * first, then today's). Without local storage (blocked, private mode) chats start afresh.
 */
import type { Gateway } from "./gateway.js";

export const LAST_CHAT_KEY = "chat-widget:last-contact";

type StorageLike = Pick<Storage, "getItem" | "setItem">;

/** The gateway, its chats continuing the one remembered in `storage` (as is when null). */
export function withPersistentChat(gateway: Gateway, storage: StorageLike | null): Gateway {
  if (!storage) return gateway;
  return {
    ...gateway,
    async startChat(jwt) {
      let last: string | null = null;
      try {
        last = storage.getItem(LAST_CHAT_KEY);
      } catch {
        // Storage refused: a new chat.
      }
      const chat = await gateway.startChat(jwt, last ?? undefined);
      try {
        storage.setItem(LAST_CHAT_KEY, chat.ContactId);
      } catch {
        // Storage full or refused: this chat is not continued next time.
      }
      return chat;
    },
  };
}
