/**
 * The visitor panel (issue 60): who the visitor of the chat in view is. Their name, e-mail and
 * attributes come with the chat (its owner, the chats store, keeps them current); the browser,
 * system and language their browser named at start-chat, the page they are on and their time
 * zone are read from the agent API, again each time the visitor reports another page.
 */
import { EMAIL_ATTRIBUTE, type AttributeSource, type VisitorResponse } from "@chat-widget/protocol";
import { useEffect, useState } from "react";
import { errorText } from "../api/errors.js";
import { AttributesPanel, Verified } from "./AttributesPanel.js";
import { EarlierConversations } from "./EarlierConversations.js";
import type { VisitorReads } from "./visitor-reads.js";
import { LocalTime, PageLink } from "./VisitorWhereabouts.js";

export interface VisitorPanelProps {
  contactId: string;
  name: string;
  attributes: Record<string, string>;
  sources?: Record<string, AttributeSource>;
  /** The visitor's details, earlier conversations and their transcripts, from the agent API. */
  reads: VisitorReads;
  /** Bumped when the visitor reports another page: the details are read again. */
  moves?: number;
}

/** Shown in the panel while the details load, and when they could not. */
export const VISITOR_LOADING = "Loading…";
export const VISITOR_UNKNOWN = "not known";

type Details =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "known"; visitor: VisitorResponse };

/** Attribute keys the panel shows above the list, so the list leaves them out. */
const SHOWN_ABOVE = ["customerName", EMAIL_ATTRIBUTE];

const started = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );

export function VisitorPanel({
  contactId,
  name,
  attributes,
  sources = {},
  reads,
  moves = 0,
}: VisitorPanelProps) {
  // Each attempt's outcome, kept with the attempt it answers: a newer one is loading until then.
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<{ key: string; details: Details } | null>(null);
  const key = `${contactId}#${attempt}#${moves}`;
  useEffect(() => {
    let live = true;
    reads.visitor(contactId).then(
      (visitor) => live && setOutcome({ key, details: { state: "known", visitor } }),
      (error: unknown) =>
        live && setOutcome({ key, details: { state: "error", message: errorText(error) } }),
    );
    return () => {
      live = false;
    };
  }, [contactId, reads, key]);
  // While the details are read again after a move, the last ones known stay in view.
  const details: Details =
    outcome?.key === key || outcome?.details.state === "known"
      ? outcome.details
      : { state: "loading" };

  const headingId = `visitor-${contactId}`;
  const email = attributes[EMAIL_ATTRIBUTE]?.trim();
  const verified = (key: string) => sources[key] === "jwt";
  const known = details.state === "known" ? details.visitor : null;
  const context = (value: string | undefined) =>
    known ? (value ?? VISITOR_UNKNOWN) : details.state === "loading" ? VISITOR_LOADING : "—";
  const rest = Object.fromEntries(
    Object.entries(attributes).filter(([k]) => !SHOWN_ABOVE.includes(k)),
  );

  return (
    <section className="visitor attributes" aria-labelledby={headingId}>
      <h3 id={headingId}>Visitor</h3>
      <dl className="identity">
        <div>
          <dt>Name</dt>
          <dd>
            {name}
            {verified("customerName") && <Verified />}
          </dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>
            {email ? <a href={`mailto:${email}`}>{email}</a> : VISITOR_UNKNOWN}
            {email && verified(EMAIL_ATTRIBUTE) && <Verified />}
          </dd>
        </div>
        <div>
          <dt>Page</dt>
          <dd data-testid="visitor-page">
            {known?.Page ? <PageLink page={known.Page} /> : context(undefined)}
          </dd>
        </div>
        <div>
          <dt>Local time</dt>
          <dd data-testid="visitor-local-time">
            {known?.TimeZone ? <LocalTime timeZone={known.TimeZone} /> : context(undefined)}
          </dd>
        </div>
        <div>
          <dt>Browser</dt>
          <dd data-testid="visitor-browser">{context(known?.Browser)}</dd>
        </div>
        <div>
          <dt>Operating system</dt>
          <dd data-testid="visitor-os">{context(known?.OperatingSystem)}</dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd data-testid="visitor-language">{context(known?.Language)}</dd>
        </div>
        {known && (
          <div>
            <dt>Chat started</dt>
            <dd>
              <time dateTime={known.StartedAt}>{started(known.StartedAt)}</time>
            </dd>
          </div>
        )}
      </dl>
      {details.state === "error" && (
        <p role="alert" className="error">
          The visitor's details could not be loaded: {details.message}{" "}
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </p>
      )}
      <AttributesPanel attributes={rest} sources={sources} />
      <EarlierConversations contactId={contactId} customerName={name} reads={reads} />
    </section>
  );
}
