/** The agent API's live updates (Server-Sent Events `queue` and `chats`) through EventSource. */
import type { ChatsResponse, QueueResponse } from "@chat-widget/protocol";

export interface EventHandlers {
  queue(data: QueueResponse): void;
  chats(data: ChatsResponse): void;
  /** The stream dropped (EventSource reconnects by itself); `false` once it is back. */
  trouble(down: boolean): void;
}

export type EventSourceFactory = (url: string) => EventSource;

export function subscribeAgentEvents(
  url: string,
  handlers: EventHandlers,
  create: EventSourceFactory = (u) => new EventSource(u),
): () => void {
  const source = create(url);
  const parse = <T>(e: MessageEvent): T | null => {
    try {
      return JSON.parse(String(e.data)) as T;
    } catch {
      return null;
    }
  };
  source.addEventListener("queue", (e) => {
    const data = parse<QueueResponse>(e as MessageEvent);
    if (data) handlers.queue(data);
  });
  source.addEventListener("chats", (e) => {
    const data = parse<ChatsResponse>(e as MessageEvent);
    if (data) handlers.chats(data);
  });
  source.addEventListener("open", () => handlers.trouble(false));
  source.addEventListener("error", () => handlers.trouble(true));
  return () => source.close();
}
