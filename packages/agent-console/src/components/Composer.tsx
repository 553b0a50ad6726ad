/**
 * Compose a reply in markdown: Enter sends, Shift+Enter adds a line; typing is reported; files
 * attach. Near the 1,024-character limit a counter shows; a longer text is kept, not sent.
 */
import { useRef, useState, type KeyboardEvent } from "react";
import { ATTACHMENT_CONTENT_TYPES, Limits } from "@chat-widget/protocol";

export interface ComposerProps {
  disabled: boolean;
  send(text: string): Promise<boolean>;
  typing(): void;
  attach(file: File): void;
}

/** The counter shows from this many characters on. */
export const COUNTER_FROM = Limits.TEXT_CONTENT_MAX - 100;

export function Composer({ disabled, send, typing, attach }: ComposerProps) {
  const [text, setText] = useState("");
  const file = useRef<HTMLInputElement>(null);
  const length = text.trim().length;
  const tooLong = length > Limits.TEXT_CONTENT_MAX;

  const submit = async () => {
    const message = text.trim();
    if (!message || disabled || tooLong) return;
    setText("");
    const sent = await send(message);
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
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder={
          disabled ? "" : "Type a reply (markdown)… Enter sends, Shift+Enter adds a line"
        }
        value={text}
        aria-invalid={tooLong}
        disabled={disabled}
        rows={3}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value) typing();
        }}
        onKeyDown={onKeyDown}
      />
      {length >= COUNTER_FROM && (
        <p className={tooLong ? "counter over" : "counter"} role="status">
          {tooLong ? "Too long to send · " : ""}
          {length}/{Limits.TEXT_CONTENT_MAX} characters
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
        <button type="button" disabled={disabled} onClick={() => file.current?.click()}>
          Attach file
        </button>
        <button type="submit" disabled={disabled || !text.trim() || tooLong}>
          Send
        </button>
      </div>
    </form>
  );
}
