/**
 * The agent API's live updates (Server-Sent Events `queue`, `queue-change`, `chats`,
 * `visitor` and `mention`), read with `fetch` so
 * the advisor's token travels in the Authorization header, never in a URL (EventSource cannot
 * send headers). A stream that fails or ends is opened again on the client's backoff (1 s
 * doubling to 30 s, ±30 %); one refused 403 means the advisor is signed out, and stays closed.
 */
import { backoffDelayMs } from "@chat-widget/chat-client";
import type {
  ChatsResponse,
  QueueChange,
  QueueResponse,
  MentionEvent,
  VisitorChange,
} from "@chat-widget/protocol";

export interface EventHandlers {
  /** The whole queue: first, and again after a reconnect. */
  queue(data: QueueResponse): void;
  /** What changed in the queue since the last frame (state/queue.ts applies it). */
  queueChange(data: QueueChange): void;
  chats(data: ChatsResponse): void;
  /** The visitor of one of the advisor's chats reported another page: the panel reads it again. */
  visitor(data: VisitorChange): void;
  /** Another advisor mentioned this one in a note (issue 60). */
  mention?(data: MentionEvent): void;
  /** The stream dropped (it is reopened by itself); `false` once it is back. */
  trouble(down: boolean): void;
  /**
   * The sign-in no longer holds (403: the advisor was disabled, signed out elsewhere or had
   * their password reset): the stream is not opened again.
   */
  signedOut(): void;
}

export interface EventStreamDeps {
  fetch: typeof fetch;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  random(): number;
}

const defaultDeps = (): EventStreamDeps => ({
  fetch: (...args) => globalThis.fetch(...args),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  random: Math.random,
});

/** Splits an SSE byte stream into events, calling `dispatch(name, data)` for each. */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  dispatch: (name: string, data: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    for (const block of blocks) {
      let name = "message";
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) dispatch(name, data.join("\n"));
    }
  }
}

export function subscribeAgentEvents(
  url: string,
  token: string,
  handlers: EventHandlers,
  deps: EventStreamDeps = defaultDeps(),
): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let timer: unknown = null;
  let failures = 0;

  const dispatch = (name: string, data: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (name === "queue") handlers.queue(parsed as QueueResponse);
    else if (name === "queue-change") handlers.queueChange(parsed as QueueChange);
    else if (name === "chats") handlers.chats(parsed as ChatsResponse);
    else if (name === "visitor") handlers.visitor(parsed as VisitorChange);
    else if (name === "mention") handlers.mention?.(parsed as MentionEvent);
  };

  const open = async () => {
    timer = null;
    controller = new AbortController();
    try {
      const response = await deps.fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
        cache: "no-store",
        signal: controller.signal,
      });
      if (response.status === 403) {
        stopped = true;
        handlers.signedOut();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
      failures = 0;
      handlers.trouble(false);
      await readEvents(response.body, dispatch);
    } catch {
      // Failed, refused or cut: tried again below.
    }
    if (stopped) return;
    handlers.trouble(true);
    timer = deps.setTimeout(() => void open(), backoffDelayMs(failures++, deps.random));
  };
  void open();

  return () => {
    stopped = true;
    controller?.abort();
    if (timer !== null) deps.clearTimeout(timer);
  };
}
