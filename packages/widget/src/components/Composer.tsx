/**
 * The composer (at most 60 px): a multi-line box, a send button and an attach button. Near
 * the 1,024-character limit a counter shows the length; a longer message is kept in the box,
 * not sent (the contact centre would refuse it).
 */
import { Limits } from "@chat-widget/protocol";
import { useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { WIDGET_ATTACHMENT_TYPES } from "../state/attachments.js";
import { useTexts } from "../texts-context.js";
import { PLACEHOLDER_INACTIVE, type Texts } from "../texts.js";
import { AttachIcon, SendIcon } from "./icons.js";

export interface ComposerProps {
  active: boolean;
  botActive: boolean;
  onSend: (text: string) => void;
  onTyped: (text: string) => void;
  onAttach: (file: File) => void;
}

/** The counter shows from this many characters on. */
export const COUNTER_FROM = Limits.TEXT_CONTENT_MAX - 100;

export function placeholderFor(active: boolean, botActive: boolean, t: Texts): string {
  if (!active) return PLACEHOLDER_INACTIVE;
  return botActive ? t.PLACEHOLDER_BOT : t.PLACEHOLDER_ACTIVE;
}

export function Composer({ active, botActive, onSend, onTyped, onAttach }: ComposerProps) {
  const t = useTexts();
  const [text, setText] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const disabled = !active || botActive;
  const length = text.trim().length;
  const tooLong = length > Limits.TEXT_CONTENT_MAX;

  const submit = () => {
    if (disabled || tooLong) return;
    if (length !== 0) onSend(text);
    setText("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <div className="composer">
      <input
        ref={fileInput}
        type="file"
        hidden
        accept={WIDGET_ATTACHMENT_TYPES.join(",")}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onAttach(file);
          event.target.value = "";
        }}
      />
      <button
        type="button"
        className="icon-button"
        title={t.ATTACH}
        aria-label={t.ATTACH}
        disabled={disabled}
        onClick={() => fileInput.current?.click()}
      >
        <AttachIcon />
      </button>
      <textarea
        aria-label={t.MESSAGE}
        rows={2}
        value={text}
        disabled={disabled}
        placeholder={placeholderFor(active, botActive, t)}
        onChange={(event) => {
          setText(event.target.value);
          onTyped(event.target.value);
        }}
        onKeyDown={onKeyDown}
        aria-invalid={tooLong}
      />
      {length >= COUNTER_FROM && (
        <span
          className={tooLong ? "counter over" : "counter"}
          role="status"
          aria-label={`${length} / ${Limits.TEXT_CONTENT_MAX} ${t.CHARACTERS}`}
        >
          {tooLong ? `${t.TOO_LONG} · ` : ""}
          {length}/{Limits.TEXT_CONTENT_MAX}
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        title={t.SEND}
        aria-label={t.SEND}
        disabled={disabled || tooLong}
        onClick={submit}
      >
        <SendIcon />
      </button>
    </div>
  );
}
