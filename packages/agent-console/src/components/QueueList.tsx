/** Contacts waiting for an advisor, oldest first, each with its order number and an Accept button. */
import { useEffect, useState } from "react";
import type { QueuedContact } from "@chat-widget/protocol";
import { errorText } from "../api/errors.js";

/** How often the waiting times are redrawn. */
export const WAITED_REFRESH_MS = 5000;

export interface QueueListProps {
  contacts: QueuedContact[];
  /** Why accepting is not possible now (offline, 10 chats open), or null. */
  blocked: string | null;
  accept(contactId: string): Promise<void>;
  now?: () => number;
}

export function QueueList({ contacts, blocked, accept, now = Date.now }: QueueListProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Waiting times move on while nothing else changes.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), WAITED_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const take = async (contactId: string) => {
    setBusy(contactId);
    setError(null);
    try {
      await accept(contactId);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="queue" aria-labelledby="queue-title">
      <h2 id="queue-title">
        Queue <span className="count">({contacts.length})</span>
      </h2>
      {blocked && <p className="note">{blocked}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {contacts.length === 0 ? (
        <p className="empty">No one is waiting.</p>
      ) : (
        <ul>
          {contacts.map((c) => {
            const order = c.OrderNumber?.trim() || null;
            const name = c.CustomerName || "Customer";
            return (
              <li key={c.ContactId}>
                <div className="who">
                  <strong>{name}</strong>
                  {order && <span className="order">Order {order}</span>}
                  <span className="waited">waiting {waited(c.QueuedAt, now())}</span>
                </div>
                <button
                  type="button"
                  disabled={blocked !== null || busy !== null}
                  onClick={() => void take(c.ContactId)}
                  aria-label={`Accept chat with ${name}`}
                >
                  {busy === c.ContactId ? "Accepting…" : "Accept"}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function waited(queuedAt: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(queuedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}
