/** The page's Web Storage, and what the first script reads of the widget's in it. */
import { isUnreadCount, STORAGE_KEY } from "./session-storage.js";

/** The page's session or local storage; null where reading it throws (blocked, sandboxed). */
export function storageOrNull(name: "sessionStorage" | "localStorage"): Storage | null {
  try {
    return window[name];
  } catch {
    return null;
  }
}

/** A chat of this tab is stored (the visitor went on to another page of the site). */
export function tabChatStored(): boolean {
  try {
    return storageOrNull("sessionStorage")?.getItem(STORAGE_KEY) != null;
  } catch {
    return false;
  }
}

/** The unread messages of this tab's chat, for the launcher's badge before the app (issue 61). */
export function tabChatUnread(): number {
  try {
    const raw = storageOrNull("sessionStorage")?.getItem(STORAGE_KEY);
    const unread = raw ? (JSON.parse(raw) as { unread?: unknown }).unread : 0;
    return isUnreadCount(unread) ? unread : 0;
  } catch {
    return 0;
  }
}
