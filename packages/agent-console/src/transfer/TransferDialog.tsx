/**
 * "Transfer" (issue 60): the advisor picks another available advisor (with their load; one at
 * their most cannot be picked) or the chat's queue, adds a note for the next advisor if they
 * like, and hands the chat on. A modal dialog: Escape or Cancel shuts it, focus goes back to
 * what opened it; a refusal is said in it, with the choice and the note kept.
 */
import {
  TRANSFER_NOTE_MAX,
  type TransferRequest,
  type TransferTargetsResponse,
} from "@chat-widget/protocol";
import { useEffect, useId, useState, type FormEvent } from "react";
import { errorText } from "../api/errors.js";
import { ModalHeader } from "../components/ModalHeader.js";
import { useModal } from "../components/use-modal.js";

export interface TransferAccess {
  targets(contactId: string): Promise<TransferTargetsResponse>;
  transfer(contactId: string, request: TransferRequest): Promise<unknown>;
}

export interface TransferDialogProps {
  contactId: string;
  customerName: string;
  access: TransferAccess;
  close(): void;
}

type Targets =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "loaded"; targets: TransferTargetsResponse };

/** The radio value of the queue (advisor ids are never empty). */
const QUEUE = "";

export function TransferDialog({ contactId, customerName, access, close }: TransferDialogProps) {
  const dialog = useModal();
  const id = useId();
  const [targets, setTargets] = useState<Targets>({ state: "loading" });
  const [choice, setChoice] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    let live = true;
    access.targets(contactId).then(
      (t) => live && setTargets({ state: "loaded", targets: t }),
      (e: unknown) => live && setTargets({ state: "error", message: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [access, contactId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (choice === null) {
      setProblem("Choose an advisor or the queue.");
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      await access.transfer(contactId, {
        ...(choice === QUEUE ? { Queue: true } : { AdvisorId: choice }),
        ...(note.trim() ? { Note: note } : {}),
      });
      close();
    } catch (error) {
      setProblem(`The chat was not transferred: ${errorText(error)}`);
      setSending(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="modal-dialog transfer-dialog"
      aria-labelledby={`${id}-h`}
      onClose={close}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        {/* No Close here: Cancel, below, closes it. */}
        <ModalHeader titleId={`${id}-h`} title={`Transfer the chat with ${customerName}`} />
        {targets.state === "loading" && <p role="status">Loading who can take it…</p>}
        {targets.state === "error" && (
          <p role="alert" className="error">
            Who can take it could not be loaded: {targets.message}
          </p>
        )}
        {targets.state === "loaded" && (
          <fieldset>
            <legend>Transfer to</legend>
            {targets.targets.Advisors.length === 0 && (
              <p className="note">No other advisor is available now.</p>
            )}
            {targets.targets.Advisors.map((a) => {
              const full = a.Chats >= a.MaxChats;
              return (
                <label key={a.AdvisorId} className={full ? "full" : undefined}>
                  <input
                    type="radio"
                    name={`${id}-to`}
                    value={a.AdvisorId}
                    disabled={full}
                    checked={choice === a.AdvisorId}
                    onChange={() => setChoice(a.AdvisorId)}
                  />
                  {a.Name}{" "}
                  <span className="load">
                    {a.Chats} of {a.MaxChats} chats{full ? ", full" : ""}
                  </span>
                </label>
              );
            })}
            <label>
              <input
                type="radio"
                name={`${id}-to`}
                value={QUEUE}
                checked={choice === QUEUE}
                onChange={() => setChoice(QUEUE)}
              />
              The queue{" "}
              <span className="load">({targets.targets.Queue}), for the next advisor</span>
            </label>
          </fieldset>
        )}
        <label htmlFor={`${id}-note`}>Note for the next advisor (optional)</label>
        <textarea
          id={`${id}-note`}
          value={note}
          rows={3}
          maxLength={TRANSFER_NOTE_MAX}
          aria-describedby={`${id}-note-hint`}
          onChange={(e) => setNote(e.target.value)}
        />
        <p className="note" id={`${id}-note-hint`}>
          Kept with the chat&apos;s notes; the visitor never sees it.
        </p>
        {problem && (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={sending || targets.state !== "loaded"}>
            Transfer
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
