/**
 * "Manage canned responses" (issue 60): the advisor's own, each changed or deleted (asked
 * once more first), a form to add one, and the team's shared ones to read (an admin manages
 * them). A modal dialog: Escape or Close shuts it, focus goes back to what opened it.
 */
import type { CannedResponse } from "@chat-widget/protocol";
import { useState } from "react";
import { errorText } from "../api/errors.js";
import { ModalHeader } from "../components/ModalHeader.js";
import { useModal } from "../components/use-modal.js";
import { CannedForm } from "./CannedForm.js";
import type { CannedState } from "./use-canned-list.js";

export interface CannedManagerProps {
  canned: CannedState;
  close(): void;
}

export function CannedManager({ canned, close }: CannedManagerProps) {
  const dialog = useModal();
  const [editing, setEditing] = useState<CannedResponse | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [told, setTold] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // A new form after each save, so its fields start from what it edits.
  const [formKey, setFormKey] = useState(0);

  const own = canned.responses.filter((c) => !c.Shared);
  const shared = canned.responses.filter((c) => c.Shared);

  // Focus follows what the advisor does, once React has drawn it.
  const focus = (selector: string) =>
    setTimeout(() => dialog.current?.querySelector<HTMLElement>(selector)?.focus(), 0);
  const edit = (c: CannedResponse) => {
    setEditing(c);
    setFormKey((k) => k + 1);
    focus("form input");
  };
  const doneEditing = (said: string) => {
    setEditing(null);
    setFormKey((k) => k + 1);
    setTold(said);
    focus("form input");
  };
  const askDelete = (c: CannedResponse | null) => {
    setDeleting(c?.CannedId ?? null);
    if (c) focus(".confirm button");
  };
  const remove = async (c: CannedResponse) => {
    setProblem(null);
    try {
      await canned.remove(c.CannedId);
      setDeleting(null);
      if (editing?.CannedId === c.CannedId) setEditing(null);
      setTold(`Deleted /${c.Shortcut}.`);
      focus("h2");
    } catch (error) {
      setProblem(`/${c.Shortcut} was not deleted: ${errorText(error)}`);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="modal-dialog canned-manager"
      aria-labelledby="canned-manager-h"
      onClose={close}
    >
      <ModalHeader
        titleId="canned-manager-h"
        title="Manage canned responses"
        onClose={close}
        titleFocusable
      />
      <p role="status" className="note">
        {told}
      </p>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      <h3 id="canned-own-h">Yours</h3>
      {own.length === 0 ? (
        <p className="note">None yet: add one below.</p>
      ) : (
        <ul className="canned-rows" aria-labelledby="canned-own-h">
          {own.map((c) => (
            <li key={c.CannedId}>
              <CannedRow response={c} />
              {deleting === c.CannedId ? (
                <div className="actions confirm" role="group" aria-label={`Delete /${c.Shortcut}?`}>
                  <span>Delete /{c.Shortcut}?</span>
                  <button type="button" className="danger" onClick={() => void remove(c)}>
                    Delete
                  </button>
                  <button type="button" onClick={() => askDelete(null)}>
                    Keep
                  </button>
                </div>
              ) : (
                <div className="actions">
                  <button
                    type="button"
                    aria-label={`Change /${c.Shortcut}`}
                    onClick={() => edit(c)}
                  >
                    Change
                  </button>
                  <button
                    type="button"
                    aria-label={`Delete /${c.Shortcut}`}
                    onClick={() => askDelete(c)}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <CannedForm
        key={formKey}
        editing={editing}
        save={async (input) => {
          const saved = editing
            ? await canned.update(editing.CannedId, input)
            : await canned.create(input);
          doneEditing(`Saved /${saved.Shortcut}.`);
        }}
        cancel={() => doneEditing("")}
      />
      <h3 id="canned-shared-h">The team's</h3>
      <p className="note">Shared with every advisor; an admin manages them.</p>
      {shared.length === 0 ? (
        <p className="note">None.</p>
      ) : (
        <ul className="canned-rows" aria-labelledby="canned-shared-h">
          {shared.map((c) => (
            <li key={c.CannedId}>
              <CannedRow response={c} />
            </li>
          ))}
        </ul>
      )}
    </dialog>
  );
}

function CannedRow({ response }: { response: CannedResponse }) {
  return (
    <div className="canned-row">
      <span className="shortcut">/{response.Shortcut}</span>{" "}
      <span className="title">{response.Title}</span>
      <span className="body">{response.Body}</span>
    </div>
  );
}
