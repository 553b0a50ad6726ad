/**
 * The chat's transcript (a log: new messages are announced), scrolled to the newest item, with
 * the chat's internal notes among its items by time.
 */
import type { Item, Note } from "@chat-widget/protocol";
import { useEffect, useMemo, useRef } from "react";
import { conversation, type ChatState } from "../state/chat-state.js";
import { NoteItem, OutgoingItem, TranscriptItem } from "./TranscriptItem.js";

export interface TranscriptProps {
  chat: ChatState;
  /** Internal notes, shown among the items by time (issue 60). */
  notes?: readonly Note[];
  download(attachmentId: string, name: string): void;
  retry(clientToken: string): void;
}

type Entry = { note: Note; at: string } | { item: Item; at: string };

export function Transcript({ chat, notes = [], download, retry }: TranscriptProps) {
  const end = useRef<HTMLDivElement>(null);
  const entries = useMemo(() => {
    const all: Entry[] = [
      ...conversation(chat.items).map((item) => ({ item, at: item.AbsoluteTime })),
      ...notes.map((note) => ({ note, at: note.CreatedAt })),
    ];
    // Stable: items keep their order, a note goes after what came before it.
    return all.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }, [chat.items, notes]);
  const count = entries.length + chat.outgoing.length;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [count, chat.customerTyping]);
  return (
    <div className="transcript" role="log" tabIndex={0} aria-label="Transcript">
      <ol>
        {entries.map((entry) =>
          "note" in entry ? (
            <NoteItem key={`note-${entry.note.NoteId}`} note={entry.note} />
          ) : (
            <TranscriptItem
              key={entry.item.Id}
              item={entry.item}
              ownParticipantId={chat.info.ParticipantId}
              customerName={chat.info.CustomerName}
              receipt={chat.receipts[entry.item.Id]}
              download={download}
            />
          ),
        )}
        {chat.outgoing.map((message) => (
          <OutgoingItem key={message.clientToken} message={message} retry={retry} />
        ))}
      </ol>
      {chat.customerTyping && (
        <p className="typing" role="status">
          {chat.info.CustomerName || "Customer"} is typing…
        </p>
      )}
      <div ref={end} />
    </div>
  );
}
