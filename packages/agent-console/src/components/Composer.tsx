/**
 * Compose a reply in markdown: Enter sends, Shift+Enter adds a line; typing is reported; files
 * attach. Near the 1,024-character limit a counter shows; a longer text is kept, not sent.
 * With `note`, the advisor switches between "Reply" and "Note" (issue 60): a note is kept for
 * advisors only, the visitor never sees it; no typing is reported and nothing attaches.
 */
import { useRef, useState, type KeyboardEvent } from "react";
import { ATTACHMENT_CONTENT_TYPES, Limits, NOTE_MAX } from "@chat-widget/protocol";

export interface ComposerProps {
  disabled: boolean;
  send(text: string): Promise<boolean>;
  typing(): void;
  attach(file: File): void;
  /** Keep an internal note (Note mode); absent: replies only. */
  note?(text: string): Promise<boolean>;
}

export type ComposerMode = "reply" | "note";

/** The counter shows from this many characters below the limit (1,024 a reply, 4,000 a note). */
const COUNTER_BEFORE_LIMIT = 100;

export function Composer({ disabled, send, typing, attach, note }: ComposerProps) {
  const [text, setText] = useState("");
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
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
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
        aria-label={noting ? "Note" : "Message"}
        placeholder={
          disabled
            ? ""
            : noting
              ? "Internal note for advisors: the visitor never sees it. @username tells an advisor"
              : "Type a reply (markdown)… Enter sends, Shift+Enter adds a line"
        }
        value={text}
        aria-invalid={tooLong}
        disabled={disabled}
        rows={3}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value && !noting) typing();
        }}
        onKeyDown={onKeyDown}
      />
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
