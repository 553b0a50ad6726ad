/** View 2: the chat window (350 × 540), with drag-and-drop of attachments. */
import { useEffect, useRef, useState } from "react";
import type { DragEvent, KeyboardEvent } from "react";
import { useViews } from "../lazy-views/context.js";
import type { WidgetState } from "../state/reducer.js";
import { advisorName, percent } from "../texts.js";
import { useTexts } from "../texts-context.js";
import { Composer } from "./Composer.js";
import { EndConfirm, EndedActions } from "./Ending.js";
import { Header } from "./Header.js";
import { Transcript } from "./Transcript.js";
import { useOnline } from "./use-online.js";
import { usePhoneViewport } from "./use-phone-viewport.js";

export interface ChatWindowActions {
  minimise: () => void;
  close: () => void;
  send: (text: string) => void;
  typed: (text: string) => void;
  choose: (title: string) => void;
  retry: (localId: string) => void;
  attach: (file: File) => void;
  download: (attachmentId: string, onProgress?: (fraction: number) => void) => Promise<Blob | null>;
  thumbnail: (attachmentId: string) => Promise<Blob | null>;
  /** After the chat has ended: close it and start another. */
  newChat: () => void;
  /** The page of the transcript before the oldest entry shown (issue 61). */
  older: () => void;
}

export interface ChatWindowProps {
  state: WidgetState;
  actions: ChatWindowActions;
}

/**
 * Where opening puts the keyboard (issue 24): the first option while the bot waits for a
 * choice, else the composer, else (the chat over) a new chat, else the transcript.
 */
function focusInside(root: HTMLElement): void {
  const target =
    root.querySelector<HTMLElement>(".option:not(:disabled)") ??
    root.querySelector<HTMLElement>("textarea:not(:disabled)") ??
    root.querySelector<HTMLElement>(".ending button") ??
    root.querySelector<HTMLElement>(".transcript");
  target?.focus();
}

/** The element with focus in the window's document or shadow root, if any. */
function focused(root: HTMLElement): Element | null {
  return (root.getRootNode() as Document | ShadowRoot).activeElement;
}

export function ChatWindow({ state, actions }: ChatWindowProps) {
  const t = useTexts();
  const [dragging, setDragging] = useState(false);
  // The close icon asks first while the chat goes on; an ended chat closes at once.
  const [confirming, setConfirming] = useState(false);
  const windowRef = useRef<HTMLDivElement>(null);
  usePhoneViewport(windowRef);
  useEffect(() => {
    if (windowRef.current) focusInside(windowRef.current);
  }, []);
  // The choice the bot waits for (older pages of history bringing earlier ones change nothing).
  const picker = state.botActive && state.entries.findLast((e) => e.kind === "template");
  // Templates render once the views script is here: a choice that came first gets focus then.
  const views = useViews();
  // While focus rests where opening put it (the transcript), or was lost with a control that
  // went away or was disabled, a new choice from the bot or the composer taking text gets it.
  useEffect(() => {
    const root = windowRef.current;
    if (!root) return;
    const active = focused(root);
    const lost = !active || !root.contains(active) || (active as HTMLButtonElement).disabled;
    if (lost || active.classList.contains("transcript")) {
      focusInside(root);
    }
  }, [state.botActive, state.active, picker, views]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    actions.minimise();
  };
  // Offline, the socket may take a heartbeat to notice; the browser knows at once.
  const online = useOnline();
  const canAttach = state.active && !state.botActive;
  const onDragOver = (event: DragEvent) => {
    if (!canAttach || !event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer?.files[0];
    if (file && canAttach) actions.attach(file);
  };
  return (
    <div
      className={`window appear${dragging ? " dragging" : ""}`}
      role="dialog"
      aria-label={t.CHAT}
      ref={windowRef}
      onKeyDown={onKeyDown}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <Header
        onMinimise={actions.minimise}
        onClose={() => (state.active ? setConfirming(true) : actions.close())}
      />
      <Transcript
        entries={state.entries}
        typing={state.agentTyping || state.botLoading}
        typingName={state.agentTyping ? advisorName(state.typingName, t) : ""}
        botActive={state.botActive}
        onChoose={actions.choose}
        onRetry={actions.retry}
        onDownload={actions.download}
        onThumbnail={actions.thumbnail}
        onOlder={state.older ? actions.older : undefined}
      />
      {dragging && <div className="uploads">{t.DROP}</div>}
      {state.uploads.map((upload) => (
        <div className="uploads" key={upload.id}>
          {t.UPLOADING} {upload.name}
          {upload.progress !== null && ` ${percent(upload.progress)}`}
          <progress
            aria-label={`${t.UPLOADING} ${upload.name}`}
            max={1}
            value={upload.progress ?? undefined}
          />
        </div>
      ))}
      {state.fileRejected !== null && (
        <div className="file-notice" role="alert">
          {t.FILE_REJECTED}
          <span className="reason">{t[state.fileRejected]}</span>
        </div>
      )}
      {(state.reconnecting || (state.active && !online)) && (
        <div className="reconnecting" role="status">
          {t.RECONNECTING}
        </div>
      )}
      {confirming && state.active && (
        <EndConfirm
          onEnd={actions.close}
          onCancel={() => {
            setConfirming(false);
            windowRef.current?.querySelector<HTMLElement>(".close")?.focus();
          }}
        />
      )}
      {!state.active && <EndedActions entries={state.entries} onNewChat={actions.newChat} />}
      <Composer
        active={state.active}
        botActive={state.botActive}
        onSend={actions.send}
        onTyped={actions.typed}
        onAttach={actions.attach}
      />
    </div>
  );
}
