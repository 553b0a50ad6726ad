/**
 * The custom-element shell, apart from the React tree: `chat-widget` with an open shadow root,
 * its `jwt` attribute passed to the React tree as the `jwt` prop (spec §1). Hand-written rather
 * than @r2wc/react-to-web-component: the same behaviour in a quarter of its 1.3 KB gzipped,
 * which the widget's 100 KB budget needed (issue 24).
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { ChatWidget } from "./ChatWidget.js";
import type { WidgetDeps } from "./ChatWidget.js";

export const ELEMENT_NAME = "chat-widget";

/** Define the element once; later calls (a second copy of the script) are ignored. */
export function defineChatWidget(deps: WidgetDeps, name = ELEMENT_NAME): CustomElementConstructor {
  const existing = customElements.get(name);
  if (existing) return existing;
  class ChatWidgetElement extends HTMLElement {
    static observedAttributes = ["jwt"];
    #root: Root | null = null;

    connectedCallback(): void {
      // Removed and added again (moved on the page), the element keeps its shadow root.
      this.#root ??= createRoot(this.shadowRoot ?? this.attachShadow({ mode: "open" }));
      this.#render();
    }

    attributeChangedCallback(): void {
      this.#render();
    }

    /**
     * Off the page the React tree unmounts: the chat's subscriptions go, the chat stays stored.
     * Checked a microtask later, so a move (removed and added at once) keeps the chat as it is,
     * and never unmounts while a host's React tree is rendering.
     */
    disconnectedCallback(): void {
      queueMicrotask(() => {
        if (this.isConnected) return;
        this.#root?.unmount();
        this.#root = null;
      });
    }

    /** The `jwt` property mirrors the attribute, as the attribute does the prop. */
    get jwt(): string | undefined {
      return this.getAttribute("jwt") ?? undefined;
    }

    set jwt(value: string | null | undefined) {
      if (value == null) this.removeAttribute("jwt");
      else this.setAttribute("jwt", value);
    }

    #render(): void {
      const jwt = this.getAttribute("jwt") ?? undefined;
      this.#root?.render(createElement(ChatWidget, { jwt, deps }));
    }
  }
  customElements.define(name, ChatWidgetElement);
  return ChatWidgetElement;
}
