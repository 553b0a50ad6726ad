/**
 * The visitor's earlier conversations in the visitor panel (issue 60): each with its date,
 * advisor and first line, opening read-only in a dialog. Only a visitor known by a verified
 * jwt subject has any.
 */
import type { EarlierConversation } from "@chat-widget/protocol";
import { useEffect, useState } from "react";
import { errorText } from "../api/errors.js";
import { ConversationDialog } from "./ConversationDialog.js";
import { conversationDate, type VisitorReads } from "./visitor-reads.js";

export interface EarlierConversationsProps {
  contactId: string;
  customerName: string;
  reads: VisitorReads;
}

type Listed =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "listed"; conversations: EarlierConversation[] };

export function EarlierConversations({
  contactId,
  customerName,
  reads,
}: EarlierConversationsProps) {
  const [listed, setListed] = useState<Listed>({ state: "loading" });
  const [open, setOpen] = useState<EarlierConversation | null>(null);
  useEffect(() => {
    let live = true;
    reads.earlier(contactId).then(
      (r) => live && setListed({ state: "listed", conversations: r.Conversations }),
      (error: unknown) => live && setListed({ state: "error", message: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [contactId, reads]);

  const headingId = `earlier-${contactId}`;
  return (
    <div className="earlier">
      <h4 id={headingId}>Earlier conversations</h4>
      {listed.state === "loading" && <p className="note">Loading…</p>}
      {listed.state === "error" && (
        <p role="alert" className="error">
          {listed.message}
        </p>
      )}
      {listed.state === "listed" && listed.conversations.length === 0 && (
        <p className="note">None.</p>
      )}
      {listed.state === "listed" && listed.conversations.length > 0 && (
        <ul aria-labelledby={headingId}>
          {listed.conversations.map((c) => (
            <li key={c.ContactId}>
              <button type="button" className="earlier-open" onClick={() => setOpen(c)}>
                <span className="when">{conversationDate(c.StartedAt)}</span>
                <span className="who">{c.AdvisorName ?? "No advisor"}</span>
                <span className="first-line">{c.FirstLine ?? "No message"}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <ConversationDialog
          conversation={open}
          customerName={customerName}
          reads={reads}
          close={() => setOpen(null)}
        />
      )}
    </div>
  );
}
