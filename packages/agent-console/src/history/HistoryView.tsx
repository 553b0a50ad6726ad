/**
 * "History" (issue 60): the team's closed conversations, the last ended first, found by words
 * in their messages and notes ("Search conversations", each shown with the words around the
 * match) and filtered by the dates they started, an advisor who took part and the visitor; each
 * opens read-only (with its transcript to download) at an address of its own,
 * `#/history/<contactId>`.
 */
import {
  HISTORY_SEARCH_MAX,
  type HistoryAdvisorsResponse,
  type HistoryConversation,
  type HistoryQuery,
} from "@chat-widget/protocol";
import { useEffect, useId, useState, type FormEvent } from "react";
import { ConversationDialog } from "../components/ConversationDialog.js";
import { conversationDate } from "../components/visitor-reads.js";
import type { TagsAccess } from "../wrap-up/TagsEditor.js";
import { useHistory, type HistoryReads } from "./use-history.js";

export interface HistoryViewProps {
  reads: HistoryReads;
  /** The conversation open (from the address), or null. */
  open: string | null;
  show(contactId: string | null): void;
  /** Tags on an opened conversation (any advisor may tag an ended one). */
  tagsAccess?: TagsAccess;
}

/** A date field's day (YYYY-MM-DD) as the start of that day here, in ISO 8601; `days` later. */
const dayStart = (day: string, days = 0): string | undefined => {
  if (!day) return undefined;
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
};

const advisorNames = (c: HistoryConversation) => c.Advisors.map((a) => a.Name).join(", ");

export function HistoryView({ reads, open, show, tagsAccess }: HistoryViewProps) {
  const id = useId();
  const list = useHistory(reads);
  const [advisors, setAdvisors] = useState<HistoryAdvisorsResponse["Advisors"]>([]);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [advisorId, setAdvisorId] = useState("");
  const [visitor, setVisitor] = useState("");
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState("");
  useEffect(() => {
    let live = true;
    // Without the list the filter offers "Any advisor" only; the history itself still loads.
    reads.advisors().then(
      (r) => live && setAdvisors(r.Advisors),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [reads]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query: HistoryQuery = {};
    const start = dayStart(from);
    const end = dayStart(to, 1); // the whole of the last day
    if (start) query.From = start;
    if (end) query.To = end;
    if (advisorId) query.AdvisorId = advisorId;
    if (visitor.trim()) query.Visitor = visitor.trim();
    if (search.trim()) query.Search = search.trim();
    if (tag.trim()) query.Tag = tag.trim();
    list.search(query);
  };

  const opened = open ? list.conversations.find((c) => c.ContactId === open) : undefined;
  return (
    <section className="history" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>History</h2>
      <form className="history-filters" onSubmit={submit} aria-label="Filter conversations">
        <label className="search">
          Search conversations
          <input
            type="search"
            value={search}
            maxLength={HISTORY_SEARCH_MAX}
            placeholder='Words, "a phrase", -without'
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <label>
          Advisor
          <select value={advisorId} onChange={(e) => setAdvisorId(e.target.value)}>
            <option value="">Any advisor</option>
            {advisors.map((a) => (
              <option key={a.AdvisorId} value={a.AdvisorId}>
                {a.Name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Visitor
          <input
            type="text"
            value={visitor}
            maxLength={100}
            placeholder="Name or e-mail"
            onChange={(e) => setVisitor(e.target.value)}
          />
        </label>
        <label>
          Tag
          <input type="text" value={tag} maxLength={40} onChange={(e) => setTag(e.target.value)} />
        </label>
        <button type="submit">Show conversations</button>
      </form>
      <p role="status" className="note">
        {list.loading
          ? "Loading conversations…"
          : `${list.conversations.length}${list.more ? "+" : ""} conversation${list.conversations.length === 1 ? "" : "s"}`}
      </p>
      {list.error && (
        <p role="alert" className="error">
          {list.error}
        </p>
      )}
      {!list.loading && list.conversations.length === 0 && !list.error && (
        <p className="note">No closed conversation matches.</p>
      )}
      {list.conversations.length > 0 && (
        <ul className="history-list" aria-label="Conversations">
          {list.conversations.map((c) => (
            <li key={c.ContactId}>
              <button type="button" className="history-open" onClick={() => show(c.ContactId)}>
                <span className="when">{conversationDate(c.StartedAt)}</span>
                <span className="who">
                  {c.CustomerName || "Visitor"}
                  {c.CustomerEmail ? ` <${c.CustomerEmail}>` : ""}
                </span>
                <span className="advisors">{advisorNames(c) || "No advisor"}</span>
                {c.Tags.length > 0 && (
                  <span className="row-tags">{c.Tags.map((t) => `#${t}`).join(" ")}</span>
                )}
                {c.Snippet ? (
                  <Snippet text={c.Snippet} />
                ) : (
                  c.FirstLine && <span className="first-line">{c.FirstLine}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      {list.more && (
        <button type="button" disabled={list.loading} onClick={list.loadMore}>
          Show more
        </button>
      )}
      {open && (
        <ConversationDialog
          key={open}
          conversation={
            opened
              ? {
                  ContactId: open,
                  StartedAt: opened.StartedAt,
                  ...(opened.Advisors.length ? { AdvisorName: advisorNames(opened) } : {}),
                }
              : { ContactId: open }
          }
          customerName={opened?.CustomerName ?? ""}
          reads={reads}
          {...(tagsAccess ? { tagsAccess } : {})}
          close={() => show(null)}
        />
      )}
    </section>
  );
}

/** The words around a search's match, each match marked (the text is shown as text, never HTML). */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/<mark>|<\/mark>/);
  return (
    <span className="snippet">
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}
    </span>
  );
}
