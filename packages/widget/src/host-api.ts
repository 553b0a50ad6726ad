/**
 * What the host page can do with `<chat-widget>` (issue 25): open, minimise and end the chat,
 * forget the visitor (issue 57), read the unread count, and hear what happens as DOM events on the element (they bubble and
 * cross the shadow root, so a listener on `document` hears them too).
 *
 * ```ts
 * await customElements.whenDefined("chat-widget");
 * const chat = document.querySelector("chat-widget")!;
 * helpButton.onclick = () => chat.open();
 * chat.addEventListener("chat-widget:unread", (e) => (badge.textContent = String(e.detail.count)));
 * ```
 */
import type { Entry } from "./state/entries.js";

export interface ChatWidgetApi {
  /** Start a chat, or show the minimised one (as the launcher does). */
  open(): void;
  /** Hide the window; the chat goes on. */
  minimise(): void;
  /** End the chat for both sides and close the window (no question asked: the host decided). */
  end(): void;
  /**
   * A site's log-out (as Intercom's `shutdown`): end any chat, close the window, and forget the
   * chat remembered for `data-persistent-chat`, so the next visitor on this browser starts afresh.
   */
  forget(): void;
  /** Advisor and bot messages that arrived while the window was hidden. */
  readonly unreadCount: number;
}

export interface ChatWidgetEventMap {
  "chat-widget:open": CustomEvent<null>;
  "chat-widget:minimise": CustomEvent<null>;
  /** A message in the transcript: the advisor's, the bot's, or the visitor's once stored. */
  "chat-widget:message": CustomEvent<Entry>;
  "chat-widget:unread": CustomEvent<{ count: number }>;
  /** The chat ended: either side ended it, or its connection broke for good. */
  "chat-widget:ended": CustomEvent<null>;
}

export type ChatWidgetEventName = keyof ChatWidgetEventMap;

/** Raise one of the element's events. */
export type HostEmit = <K extends ChatWidgetEventName>(
  name: K,
  detail: ChatWidgetEventMap[K]["detail"],
) => void;

/** Dispatch the event on the element: bubbling, and composed (it leaves any shadow root). */
export const dispatchOn =
  (target: EventTarget): HostEmit =>
  (name, detail) =>
    target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));

export interface ChatWidgetElement extends HTMLElement, ChatWidgetApi {
  jwt: string | undefined;
  addEventListener<K extends ChatWidgetEventName>(
    type: K,
    listener: (this: ChatWidgetElement, event: ChatWidgetEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends ChatWidgetEventName>(
    type: K,
    listener: (this: ChatWidgetElement, event: ChatWidgetEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "chat-widget": ChatWidgetElement;
  }
}
