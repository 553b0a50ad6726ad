/** The chat that survives navigation and reload (docs/decisions.md #6): kept in session storage. */
import type { StartChatResult } from "@chat-widget/protocol";

export interface StoredChat {
  chat: StartChatResult;
  /** Whether the window was open (true) or minimised (false). */
  visible: boolean;
  /** AbsoluteTime of the latest item the page handled: older ones are history after a reload. */
  handledUntil?: string;
  /** Messages written and not stored yet: sent again after a reload with the same ClientToken. */
  unsent?: UnsentMessage[];
  /** Messages that arrived while the window was minimised, unread: the badge on the next page. */
  unread?: number;
}

export interface UnsentMessage {
  clientToken: string;
  content: string;
}

/** At most this many unsent messages are kept (a visitor does not write more while offline). */
export const MAX_UNSENT = 100;

const isUnsent = (value: unknown): value is UnsentMessage =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as UnsentMessage).clientToken === "string" &&
  typeof (value as UnsentMessage).content === "string";

export interface ChatStorage {
  load(): StoredChat | null;
  save(value: StoredChat): void;
  clear(): void;
}

export const STORAGE_KEY = "chat-widget:chat";

/** A stored unread count: a whole number, 0 or more. */
export const isUnreadCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function isStored(value: unknown): value is StoredChat {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<StoredChat>;
  const c = v.chat as Partial<StartChatResult> | undefined;
  return (
    typeof v.visible === "boolean" &&
    (v.handledUntil === undefined || typeof v.handledUntil === "string") &&
    (v.unread === undefined || isUnreadCount(v.unread)) &&
    (v.unsent === undefined ||
      (Array.isArray(v.unsent) && v.unsent.length <= MAX_UNSENT && v.unsent.every(isUnsent))) &&
    typeof c === "object" &&
    c !== null &&
    typeof c.ContactId === "string" &&
    typeof c.ParticipantId === "string" &&
    typeof c.ParticipantToken === "string"
  );
}

/** A ChatStorage over a Web Storage object; a storage that throws (privacy modes) is a no-op. */
export function createChatStorage(storage: StorageLike | null, key = STORAGE_KEY): ChatStorage {
  return {
    load() {
      try {
        const raw = storage?.getItem(key);
        if (!raw) return null;
        const value: unknown = JSON.parse(raw);
        return isStored(value) ? value : null;
      } catch {
        return null;
      }
    },
    save(value) {
      try {
        storage?.setItem(key, JSON.stringify(value));
      } catch {
        /* storage unavailable: the chat simply does not survive a reload */
      }
    },
    clear() {
      try {
        storage?.removeItem(key);
      } catch {
        /* ignore */
      }
    },
  };
}
