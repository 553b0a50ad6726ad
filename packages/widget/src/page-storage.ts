/** The page's Web Storage, and what the first script reads of the widget's in it. */
import { STORAGE_KEY } from "./session-storage.js";

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
