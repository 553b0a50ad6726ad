/**
 * The queue as the events stream tells it (issue 57): a whole `queue` first, then each
 * `queue-change` applied to it: entries new or changed put in place (oldest first, by QueuedAt
 * then ContactId), those that left removed.
 */
import type { QueueChange, QueuedContact } from "@chat-widget/protocol";

export function applyQueueChange(queue: QueuedContact[], change: QueueChange): QueuedContact[] {
  const gone = new Set([...change.Removed, ...change.Added.map((c) => c.ContactId)]);
  return [...queue.filter((c) => !gone.has(c.ContactId)), ...change.Added].sort(
    (a, b) =>
      a.QueuedAt.localeCompare(b.QueuedAt) ||
      (a.ContactId < b.ContactId ? -1 : a.ContactId > b.ContactId ? 1 : 0),
  );
}
