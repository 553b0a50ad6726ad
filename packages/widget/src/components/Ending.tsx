/**
 * Ending a chat (issue 24): the close icon asks first ("End this chat?", End chat / Cancel).
 * Once the chat has ended (either side) the window offers a new chat and the transcript; the
 * download is a rare view (lazy-views/DownloadTranscript.tsx), the new chat always here.
 */
import { useEffect, useRef } from "react";
import type { KeyboardEvent } from "react";
import type { Entry } from "../state/entries.js";
import { useTexts } from "../texts-context.js";
import { LazyDownloadTranscript } from "./lazy.js";

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

export interface EndedActionsProps {
  entries: readonly Entry[];
  onNewChat: () => void;
}

export function EndedActions({ entries, onNewChat }: EndedActionsProps) {
  const t = useTexts();
  return (
    <div className="ending">
      <button type="button" className="primary" onClick={onNewChat}>
        {t.NEW_CHAT}
      </button>
      <LazyDownloadTranscript entries={entries} />
    </div>
  );
}
