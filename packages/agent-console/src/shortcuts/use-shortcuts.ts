/**
 * The console's keyboard shortcuts while it is signed in (issue 60): the actions the console
 * owns are passed in; those of the composer in view go to it as commands.
 */
import { useEffect, useRef } from "react";
import { sendComposerCommand, shortcutOf } from "./shortcuts.js";

export interface ShortcutHandlers {
  next(): void;
  previous(): void;
  accept(): void;
  help(): void;
}

export function useShortcuts(handlers: ShortcutHandlers): void {
  // The newest handlers, for the one listener.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutOf(e);
      if (!action) return;
      e.preventDefault();
      if (action === "focus" || action === "canned" || action === "toggle-note")
        sendComposerCommand(action);
      else latest.current[action]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
