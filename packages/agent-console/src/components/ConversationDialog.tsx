/**
 * A past conversation, read-only, in a modal dialog (issue 60): its whole transcript as the
 * console shows a live one, without composer or attachment downloads, and the transcript as a
 * text file to keep. Escape or Close shuts it, and focus goes back to what opened it. Opened
 * from a deep link, what the list would have said (its date, its advisor) is read from it.
 */
import { ParticipantRole, type Item } from "@chat-widget/protocol";
import { useEffect, useState } from "react";
import { errorText } from "../api/errors.js";
import { conversation } from "../state/chat-state.js";
import { saveText, transcriptText } from "../history/transcript-file.js";
import { TagsEditor, type TagsAccess } from "../wrap-up/TagsEditor.js";
import { ModalHeader } from "./ModalHeader.js";
import { TranscriptItem } from "./TranscriptItem.js";
import { TranscriptLog } from "./TranscriptLog.js";
import { useModal } from "./use-modal.js";
import { conversationDate, wholeTranscript, type VisitorReads } from "./visitor-reads.js";

export interface ConversationDialogProps {
  conversation: { ContactId: string; StartedAt?: string; AdvisorName?: string };
  customerName: string;
  reads: Pick<VisitorReads, "transcript">;
  /** Its tags, shown and changed in it (any advisor may tag an ended conversation). */
  tagsAccess?: TagsAccess;
  close(): void;
}

type Loaded =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "loaded"; items: Item[]; complete: boolean };

export function ConversationDialog({
  conversation: shown,
  customerName,
  reads,
  tagsAccess,
  close,
}: ConversationDialogProps) {
  const dialog = useModal();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    let live = true;
    wholeTranscript(reads, shown.ContactId).then(
      ({ items, complete }) =>
        live && setLoaded({ state: "loaded", items: conversation(items), complete }),
      (error: unknown) => live && setLoaded({ state: "error", message: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [reads, shown.ContactId]);

  const items = loaded.state === "loaded" ? loaded.items : [];
  const startedAt = shown.StartedAt ?? items[0]?.AbsoluteTime;
  const advisor =
    shown.AdvisorName ??
    items.find((i) => i.ParticipantRole === ParticipantRole.AGENT)?.DisplayName;
  const title = startedAt ? `Conversation of ${conversationDate(startedAt)}` : "Conversation";
  const titleId = `conversation-${shown.ContactId}`;
  const download = () =>
    saveText(
      `conversation-${(startedAt ?? "").slice(0, 10) || shown.ContactId}.txt`,
      `${title}\n\n${transcriptText(items, customerName)}`,
    );
  return (
    <dialog
      ref={dialog}
      className="modal-dialog conversation-dialog"
      aria-labelledby={titleId}
      onClose={close}
    >
      <ModalHeader titleId={titleId} title={title} onClose={close}>
        {loaded.state === "loaded" && (
          <button type="button" onClick={download}>
            Download transcript
          </button>
        )}
      </ModalHeader>
      <p className="note">
        {advisor
          ? `Answered by ${advisor}.`
          : loaded.state === "loaded"
            ? "No advisor joined."
            : ""}{" "}
        Read only.
      </p>
      {tagsAccess && <TagsEditor contactId={shown.ContactId} access={tagsAccess} />}
      {loaded.state === "loading" && <p role="status">Loading the conversation…</p>}
      {loaded.state === "error" && (
        <p role="alert" className="error">
          The conversation could not be loaded: {loaded.message}
        </p>
      )}
      {loaded.state === "loaded" && (
        <TranscriptLog
          count={items.length}
          newest={items.at(-1)?.Id ?? ""}
          render={(from, to) =>
            items
              .slice(from, to)
              .map((item) => (
                <TranscriptItem
                  key={item.Id}
                  item={item}
                  ownParticipantId=""
                  customerName={customerName}
                  receipt={undefined}
                />
              ))
          }
        >
          {!loaded.complete && (
            <p className="note">Only the first {loaded.items.length} items are shown.</p>
          )}
        </TranscriptLog>
      )}
    </dialog>
  );
}
