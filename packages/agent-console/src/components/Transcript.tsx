/**
 * The chat's transcript (a log: new messages are announced), scrolled to the newest item, with
 * the chat's internal notes among its items by time; older pages load as the advisor scrolls up.
 */
import type { Item, Note } from "@chat-widget/protocol";
import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { conversation, type ChatState } from "../state/chat-state.js";
import { TranscriptLog } from "./TranscriptLog.js";
import { NoteItem, OutgoingItem, TranscriptItem } from "./TranscriptItem.js";

export interface TranscriptProps {
  chat: ChatState;
  /** Internal notes, shown among the items by time (issue 60). */
  notes?: readonly Note[];
  download(attachmentId: string, name: string): void;
  retry(clientToken: string): void;
  /** Load the page before the oldest item (set while there is one). */
  onOlder?: (() => void) | undefined;
}

type Entry = { note: Note; at: string } | { item: Item; at: string };

const keyOf = (entry: Entry): string =>
  "note" in entry ? `note-${entry.note.NoteId}` : entry.item.Id;

export function Transcript({ chat, notes = [], download, retry, onOlder }: TranscriptProps) {
  // The same function for every render, so the items (memo) render again only when they change.
  const latest = useRef(download);
  useLayoutEffect(() => {
    latest.current = download;
  });
  const downloadAttachment = useCallback(
    (attachmentId: string, name: string) => latest.current(attachmentId, name),
    [],
  );
  const entries = useMemo(() => {
    const all: Entry[] = [
      ...conversation(chat.items).map((item) => ({ item, at: item.AbsoluteTime })),
      ...notes.map((note) => ({ note, at: note.CreatedAt })),
    ];
    // Stable: items keep their order, a note goes after what came before it.
    return all.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }, [chat.items, notes]);
  const last = entries.at(-1);
  const row = (entry: Entry) =>
    "note" in entry ? (
      <NoteItem key={keyOf(entry)} note={entry.note} />
    ) : (
      <TranscriptItem
        key={keyOf(entry)}
        item={entry.item}
        ownParticipantId={chat.info.ParticipantId}
        customerName={chat.info.CustomerName}
        receipt={chat.receipts[entry.item.Id]}
        download={downloadAttachment}
      />
    );
  return (
    <TranscriptLog
      count={entries.length}
      newest={last ? keyOf(last) : ""}
      render={(from, to) => entries.slice(from, to).map(row)}
      onOlder={onOlder}
      loadingOlder={chat.loadingOlder}
      follow={`${chat.outgoing.at(-1)?.clientToken ?? ""} ${chat.customerTyping}`}
      after={chat.outgoing.map((message) => (
        <OutgoingItem key={message.clientToken} message={message} retry={retry} />
      ))}
    >
      {chat.customerTyping && (
        <p className="typing" role="status">
          {chat.info.CustomerName || "Customer"} is typing…
        </p>
      )}
    </TranscriptLog>
  );
}
