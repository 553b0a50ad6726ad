/** The chat's transcript (a log: new messages are announced), scrolled to the newest item. */
import { useEffect, useMemo, useRef } from "react";
import { conversation, type ChatState } from "../state/chat-state.js";
import { OutgoingItem, TranscriptItem } from "./TranscriptItem.js";

export interface TranscriptProps {
  chat: ChatState;
  download(attachmentId: string, name: string): void;
  retry(clientToken: string): void;
}

export function Transcript({ chat, download, retry }: TranscriptProps) {
  const end = useRef<HTMLDivElement>(null);
  const items = useMemo(() => conversation(chat.items), [chat.items]);
  const count = items.length + chat.outgoing.length;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [count, chat.customerTyping]);
  return (
    <div className="transcript" role="log" tabIndex={0} aria-label="Transcript">
      <ol>
        {items.map((item) => (
          <TranscriptItem
            key={item.Id}
            item={item}
            ownParticipantId={chat.info.ParticipantId}
            customerName={chat.info.CustomerName}
            receipt={chat.receipts[item.Id]}
            download={download}
          />
        ))}
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
