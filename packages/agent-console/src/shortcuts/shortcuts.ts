/**
 * The console's keyboard shortcuts (issue 60): one table, read by the key handler and by the
 * "Keyboard shortcuts" dialog. Alt with a letter, by the key's place (`code`), so that a layout
 * or Alt's own characters on a Mac do not change them; `?` alone, outside a text box.
 */
export type ShortcutAction =
  "next" | "previous" | "accept" | "focus" | "canned" | "toggle-note" | "help";

export interface Shortcut {
  action: ShortcutAction;
  /** As shown (and in aria-keyshortcuts). */
  keys: string;
  label: string;
  code?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: "next", keys: "Alt+J", code: "KeyJ", label: "Next chat" },
  { action: "previous", keys: "Alt+K", code: "KeyK", label: "Previous chat" },
  { action: "accept", keys: "Alt+A", code: "KeyA", label: "Accept the chat waiting longest" },
  { action: "focus", keys: "Alt+M", code: "KeyM", label: "Write in the chat in view" },
  { action: "canned", keys: "Alt+/", code: "Slash", label: "Open canned responses" },
  { action: "toggle-note", keys: "Alt+N", code: "KeyN", label: "Switch between Reply and Note" },
  { action: "help", keys: "?", label: "Show the keyboard shortcuts (outside a text box)" },
];

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** The shortcut a key press asks for, or null. */
export function shortcutOf(e: KeyboardEvent): ShortcutAction | null {
  if (e.defaultPrevented || e.isComposing) return null;
  if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey)
    return SHORTCUTS.find((s) => s.code === e.code)?.action ?? null;
  if (e.key === "?" && !e.altKey && !e.ctrlKey && !e.metaKey && !typingIn(e.target)) return "help";
  return null;
}

/** What the composer in view is asked to do (it listens while it is shown). */
export type ComposerCommand = "focus" | "canned" | "toggle-note";
const COMPOSER_COMMAND = "agent-console:composer";

export const sendComposerCommand = (command: ComposerCommand) =>
  window.dispatchEvent(new CustomEvent<ComposerCommand>(COMPOSER_COMMAND, { detail: command }));

export function onComposerCommand(listener: (command: ComposerCommand) => void): () => void {
  const handle = (e: Event) => listener((e as CustomEvent<ComposerCommand>).detail);
  window.addEventListener(COMPOSER_COMMAND, handle);
  return () => window.removeEventListener(COMPOSER_COMMAND, handle);
}
