/** View 2: the chat window (350 × 540), with drag-and-drop of attachments. */
import { useState } from "react";
import type { DragEvent } from "react";
import type { WidgetState } from "../state/reducer.js";
import { ExtraText, percent } from "../texts.js";
import { Composer } from "./Composer.js";
import { Header } from "./Header.js";
import { Transcript } from "./Transcript.js";
import { useOnline } from "./use-online.js";

export interface ChatWindowActions {
  minimise: () => void;
  close: () => void;
  send: (text: string) => void;
  typed: (text: string) => void;
  choose: (title: string) => void;
  retry: (localId: string) => void;
  attach: (file: File) => void;
  download: (attachmentId: string, onProgress?: (fraction: number) => void) => Promise<Blob | null>;
}

export interface ChatWindowProps {
  state: WidgetState;
  actions: ChatWindowActions;
}

export function ChatWindow({ state, actions }: ChatWindowProps) {
  const [dragging, setDragging] = useState(false);
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
      aria-label={ExtraText.CHAT}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <Header onMinimise={actions.minimise} onClose={actions.close} />
      <Transcript
        entries={state.entries}
        typing={state.agentTyping || state.botLoading}
        botActive={state.botActive}
        onChoose={actions.choose}
        onRetry={actions.retry}
        onDownload={actions.download}
      />
      {dragging && <div className="uploads">{ExtraText.DROP}</div>}
      {state.uploads.map((upload) => (
        <div className="uploads" key={upload.id}>
          {ExtraText.UPLOADING} {upload.name}
          {upload.progress !== null && ` ${percent(upload.progress)}`}
          <progress
            aria-label={`${ExtraText.UPLOADING} ${upload.name}`}
            max={1}
            value={upload.progress ?? undefined}
          />
        </div>
      ))}
      {state.fileRejected !== null && (
        <div className="file-notice" role="alert">
          {ExtraText.FILE_REJECTED}
          <span className="reason">{state.fileRejected}</span>
        </div>
      )}
      {(state.reconnecting || (state.active && !online)) && (
        <div className="reconnecting" role="status">
          {ExtraText.RECONNECTING}
        </div>
      )}
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
