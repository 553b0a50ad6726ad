/** One chat: header with End chat, the visitor panel, the transcript, transfers, errors and the composer. */
import { useState } from "react";
import type { ChatState } from "../state/chat-state.js";
import { panelId, tabId } from "./ChatTabs.js";
import { Composer } from "./Composer.js";
import { Transcript } from "./Transcript.js";
import { Transfers } from "./Transfers.js";
import type { CannedResponse } from "@chat-widget/protocol";
import { fillCanned } from "../canned/fill.js";
import { useNotes, type NotesAccess } from "./use-notes.js";
import { TransferDialog, type TransferAccess } from "../transfer/TransferDialog.js";
import { TagsEditor, type TagsAccess } from "../wrap-up/TagsEditor.js";
import { WrapUpForm } from "../wrap-up/WrapUpForm.js";
import { VisitorPanel } from "./VisitorPanel.js";
import type { VisitorReads } from "./visitor-reads.js";

export interface ChatActions {
  send(contactId: string, text: string): Promise<boolean>;
  retry(contactId: string, clientToken: string): void;
  typing(contactId: string): void;
  attach(contactId: string, file: File): void;
  download(contactId: string, attachmentId: string, name: string): void;
  /** The page of the transcript before the oldest shown. */
  older(contactId: string): void;
  end(contactId: string): Promise<void>;
  close(contactId: string): void;
  dismissError(contactId: string): void;
}

export interface ChatViewProps {
  chat: ChatState;
  actions: ChatActions;
  /** The visitor panel's reads (a stable object: the panel loads again when it changes). */
  visitorReads: VisitorReads;
  /** Bumped when the visitor reports another page: the panel reads it again. */
  visitorMoves?: number;
  /** The chat's internal notes (a stable object). */
  notesAccess: NotesAccess;
  /** Canned responses offered after `/` in the composer. */
  canned?: readonly CannedResponse[];
  /** The signed-in advisor's name, for `{{advisor.name}}`. */
  advisorName?: string;
  /** Transfer's reads and action (a stable object); without it there is no Transfer button. */
  transferAccess?: TransferAccess;
  /** The chat's tags (a stable object); without it no tags are shown. */
  tagsAccess?: TagsAccess;
  /** Saves the wrap-up once the chat has ended; without it none is offered. */
  wrapUp?(contactId: string, body: string): Promise<unknown>;
}

export function ChatView({
  chat,
  actions,
  visitorReads,
  visitorMoves = 0,
  notesAccess,
  canned = [],
  advisorName = "",
  transferAccess,
  tagsAccess,
  wrapUp,
}: ChatViewProps) {
  const id = chat.info.ContactId;
  const notes = useNotes(id, notesAccess);
  const name = chat.info.CustomerName || "Customer";
  const [ending, setEnding] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const end = async () => {
    setEnding(true);
    try {
      await actions.end(id);
    } finally {
      setEnding(false);
    }
  };
  return (
    <section className="chat-view" role="tabpanel" id={panelId(id)} aria-labelledby={tabId(id)}>
      <header>
        <h2>{name}</h2>
        {!chat.ended && chat.connection === "connecting" && !chat.error && (
          <span className="status">Connecting…</span>
        )}
        {chat.ended ? (
          <button type="button" onClick={() => actions.close(id)}>
            Close chat
          </button>
        ) : (
          <>
            {transferAccess && (
              <button type="button" onClick={() => setTransferring(true)}>
                Transfer
              </button>
            )}
            <button type="button" className="danger" disabled={ending} onClick={() => void end()}>
              End chat
            </button>
          </>
        )}
      </header>
      {tagsAccess && !chat.handedOn && <TagsEditor contactId={id} access={tagsAccess} />}
      {transferring && transferAccess && !chat.ended && (
        <TransferDialog
          contactId={id}
          customerName={name}
          access={transferAccess}
          close={() => setTransferring(false)}
        />
      )}
      <div className="chat-body">
        <div className="conversation">
          {chat.error && (
            <div role="alert" className="error">
              {chat.error}{" "}
              <button
                type="button"
                onClick={() => actions.dismissError(id)}
                aria-label="Dismiss error"
              >
                ×
              </button>
            </div>
          )}
          {!chat.ended && chat.connection === "reconnecting" && (
            <p className="note reconnecting" role="status">
              Connection lost. Reconnecting… Messages you send will go when it is back.
            </p>
          )}
          {notes.error && (
            <div role="alert" className="error">
              {notes.error}{" "}
              <button type="button" onClick={notes.dismiss} aria-label="Dismiss error">
                ×
              </button>
            </div>
          )}
          <Transcript
            chat={chat}
            notes={notes.notes}
            download={(attachmentId, n) => actions.download(id, attachmentId, n)}
            retry={(clientToken) => actions.retry(id, clientToken)}
            onOlder={chat.older ? () => actions.older(id) : undefined}
          />
          <Transfers transfers={chat.transfers} />
          {chat.ended && (
            <p className="note">
              {chat.handedOn ? "You transferred this chat." : "This chat has ended."}
            </p>
          )}
          {chat.ended && !chat.handedOn && wrapUp && (
            <WrapUpForm save={(body) => wrapUp(id, body)} />
          )}
          <Composer
            disabled={chat.ended}
            send={(text) => actions.send(id, text)}
            typing={() => actions.typing(id)}
            attach={(file) => actions.attach(id, file)}
            note={notes.add}
            canned={{
              responses: canned,
              fill: (body) =>
                fillCanned(body, {
                  visitorName: name,
                  advisorName,
                  attributes: chat.info.Attributes,
                }),
            }}
          />
        </div>
        <VisitorPanel
          contactId={id}
          name={name}
          attributes={chat.info.Attributes}
          sources={chat.info.AttributeSources}
          reads={visitorReads}
          moves={visitorMoves}
        />
      </div>
    </section>
  );
}
