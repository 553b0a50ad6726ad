/**
 * Compose a reply in markdown: Enter sends, Shift+Enter adds a line; typing is reported; files
 * attach. Near the 1,024-character limit a counter shows; a longer text is kept, not sent.
 * With `note`, the advisor switches between "Reply" and "Note" (issue 60): a note is kept for
 * advisors only, the visitor never sees it; no typing is reported and nothing attaches.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import {
  ATTACHMENT_CONTENT_TYPES,
  Limits,
  NOTE_MAX,
  type CannedResponse,
} from "@chat-widget/protocol";
import { CannedList, cannedOptionId } from "../canned/CannedList.js";
import { useCannedPicker } from "../canned/use-canned-picker.js";
import { onComposerCommand } from "../shortcuts/shortcuts.js";

export interface ComposerProps {
  disabled: boolean;
  send(text: string): Promise<boolean>;
  typing(): void;
  attach(file: File): void;
  /** Keep an internal note (Note mode); absent: replies only. */
  note?(text: string): Promise<boolean>;
  /** Canned responses offered after `/` (issue 60), and how their placeholders are filled. */
  canned?: { responses: readonly CannedResponse[]; fill(body: string): string };
}

export type ComposerMode = "reply" | "note";

/** The counter shows from this many characters below the limit (1,024 a reply, 4,000 a note). */
const COUNTER_BEFORE_LIMIT = 100;

export function Composer({ disabled, send, typing, attach, note, canned }: ComposerProps) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [mode, setMode] = useState<ComposerMode>("reply");
  const file = useRef<HTMLInputElement>(null);
  const noting = mode === "note" && note !== undefined;
  const max = noting ? NOTE_MAX : Limits.TEXT_CONTENT_MAX;
  const length = text.trim().length;
  const tooLong = length > max;

  const submit = async () => {
    const message = text.trim();
    if (!message || disabled || tooLong) return;
    setText("");
    const sent = noting ? await note(message) : await send(message);
    if (!sent) setText((current) => current || message);
  };
  const picker = useCannedPicker(noting ? "" : text, canned?.responses ?? [], (response) => {
    setText(canned ? canned.fill(response.Body) : response.Body);
    box.current?.focus();
  });
  // Keyboard shortcuts (issue 60) reach the composer in view.
  useEffect(
    () =>
      onComposerCommand((command) => {
        if (disabled) return;
        if (command === "canned") {
          setMode("reply");
          setText((current) => (current.trim() ? current : "/"));
        } else if (command === "toggle-note" && note) {
          setMode((m) => (m === "reply" ? "note" : "reply"));
        }
        box.current?.focus();
      }),
    [disabled, note],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing || picker.onKey(e)) return;
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <form
      className={noting ? "composer noting" : "composer"}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {note && (
        <div className="composer-mode" role="group" aria-label="Write a">
          {(["reply", "note"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              disabled={disabled}
              onClick={() => setMode(m)}
            >
              {m === "reply" ? "Reply" : "Note"}
            </button>
          ))}
        </div>
      )}
      <textarea
        ref={box}
        aria-label={noting ? "Note" : "Message"}
        aria-controls={picker.open && picker.matches.length > 0 ? listId : undefined}
        aria-activedescendant={
          picker.open && picker.matches.length > 0
            ? cannedOptionId(listId, picker.active)
            : undefined
        }
        placeholder={
          disabled
            ? ""
            : noting
              ? "Internal note for advisors: the visitor never sees it. @username tells an advisor"
              : canned?.responses.length
                ? "Type a reply (markdown), or / for canned responses… Enter sends, Shift+Enter adds a line"
                : "Type a reply (markdown)… Enter sends, Shift+Enter adds a line"
        }
        value={text}
        aria-invalid={tooLong}
        disabled={disabled}
        rows={3}
        onChange={(e) => {
          setText(e.target.value);
          picker.reset();
          if (e.target.value && !noting) typing();
        }}
        onKeyDown={onKeyDown}
      />
      {picker.open && (
        <CannedList
          id={listId}
          query={text.slice(1)}
          matches={picker.matches}
          active={picker.active}
          choose={picker.choose}
        />
      )}
      {length >= max - COUNTER_BEFORE_LIMIT && (
        <p className={tooLong ? "counter over" : "counter"} role="status">
          {tooLong ? "Too long to send · " : ""}
          {length}/{max} characters
        </p>
      )}
      <div className="actions">
        <input
          ref={file}
          type="file"
          hidden
          accept={ATTACHMENT_CONTENT_TYPES.join(",")}
          aria-label="Attachment file"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) attach(chosen);
            e.target.value = "";
          }}
        />
        {!noting && (
          <button type="button" disabled={disabled} onClick={() => file.current?.click()}>
            Attach file
          </button>
        )}
        <button type="submit" disabled={disabled || !text.trim() || tooLong}>
          {noting ? "Add note" : "Send"}
        </button>
      </div>
    </form>
  );
}
