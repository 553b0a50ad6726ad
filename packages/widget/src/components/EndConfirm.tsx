/**
 * Ending a chat (issue 24): the close icon asks first ("End this chat?", End chat / Cancel).
 * What the window offers once the chat has ended is a rare view: lazy-views/EndedActions.tsx.
 */
import { useEffect, useRef } from "react";
import type { KeyboardEvent } from "react";
import { useTexts } from "../texts-context.js";

export interface EndConfirmProps {
  onEnd: () => void;
  onCancel: () => void;
}

/** Focus starts on Cancel, the choice that loses nothing; Escape cancels. */
export function EndConfirm({ onEnd, onCancel }: EndConfirmProps) {
  const t = useTexts();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    onCancel();
  };
  return (
    <div className="ending" role="alertdialog" aria-label={t.END_QUESTION} onKeyDown={onKeyDown}>
      <p>{t.END_QUESTION}</p>
      <button type="button" className="primary" onClick={onEnd}>
        {t.END_CHAT}
      </button>
      <button type="button" ref={cancel} onClick={onCancel}>
        {t.CANCEL}
      </button>
    </div>
  );
}
