/** Debian's Chromium driven by playwright-core, headless, with the page's console errors collected. */
import type { Item } from "@chat-widget/protocol";
import type { Page } from "playwright-core";

export interface PageLog {
  /** console.error messages and uncaught exceptions. */
  errors: string[];
  /** Every URL the page requested (HTTP and websocket). */
  requests: string[];
  websockets: string[];
  /** Request headers of every participant-service call the page made (as sent). */
  participantHeaders: Record<string, string>[];
}

export function watchPage(page: Page): PageLog {
  const log: PageLog = { errors: [], requests: [], websockets: [], participantHeaders: [] };
  page.on("console", (message) => {
    if (message.type() === "error") log.errors.push(message.text());
  });
  page.on("pageerror", (error) => log.errors.push(`pageerror: ${error.message}`));
  page.on("request", (request) => {
    log.requests.push(`${request.method()} ${request.url()}`);
    if (
      request.method() === "POST" &&
      new URL(request.url()).pathname.startsWith("/participant/")
    ) {
      // Asked of the browser: refused once the page has closed, when it no longer matters.
      request.allHeaders().then(
        (headers) => log.participantHeaders.push(headers),
        () => {},
      );
    }
  });
  page.on("websocket", (socket) => log.websockets.push(socket.url()));
  return log;
}

export interface ChatjsEvent {
  kind: string;
  data: Item | null;
}

/** What chatjs's session callbacks have delivered so far (window.chat.events). */
export function chatjsEvents(page: Page): Promise<ChatjsEvent[]> {
  return page.evaluate(
    () => (window as unknown as { chat: { events: ChatjsEvent[] } }).chat.events,
  );
}

/** Items chatjs delivered through callback `kind` (default onMessage). */
export async function chatjsItems(page: Page, kind = "message"): Promise<Item[]> {
  return (await chatjsEvents(page)).filter((e) => e.kind === kind).map((e) => e.data as Item);
}

/** Waits until chatjs delivered an item through `kind` that matches; returns it. */
export async function waitForChatjsItem(
  page: Page,
  match: (item: Item) => boolean,
  kind = "message",
  ms = 15_000,
): Promise<Item> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = (await chatjsItems(page, kind)).find(match);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = (await chatjsEvents(page)).map(
        (e) =>
          `${e.kind}:${e.data?.Type ?? ""}/${e.data?.ContentType ?? ""}/${e.data?.ParticipantRole ?? ""}`,
      );
      throw new Error(`chatjs delivered no matching ${kind}; events: ${seen.join(" | ")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function waitForChatjsEvent(page: Page, kind: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await chatjsEvents(page)).some((e) => e.kind === kind)) {
    if (Date.now() > deadline) throw new Error(`chatjs emitted no ${kind}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
