/**
 * The custom-element shell, apart from the React tree: `chat-widget` with an open shadow root,
 * its `jwt` attribute passed to the React tree as the `jwt` prop (docs/product.md §1). Hand-written rather
 * than @r2wc/react-to-web-component: the same behaviour in a quarter of its 1.3 KB gzipped,
 * which the widget's 100 KB budget needed (issue 24). Its methods and events are the host
 * page's API (host-api.ts, issue 25).
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { ChatWidget } from "./ChatWidget.js";
import type { WidgetDeps } from "./ChatWidget.js";
import { dispatchOn } from "./host-api.js";
import type { ChatWidgetApi } from "./host-api.js";

export const ELEMENT_NAME = "chat-widget";

/** Define the element once; later calls (a second copy of the script) are ignored. */
export function defineChatWidget(deps: WidgetDeps, name = ELEMENT_NAME): CustomElementConstructor {
  const existing = customElements.get(name);
  if (existing) return existing;
  class ChatWidgetElement extends HTMLElement implements ChatWidgetApi {
    static observedAttributes = ["jwt"];
    #root: Root | null = null;
    #api: ChatWidgetApi | null = null;
    /** Calls made before the React tree is ready (just added to the page): run once it is. */
    #pending: ((api: ChatWidgetApi) => void)[] = [];
    readonly #emit = dispatchOn(this);
    readonly #ref = (api: ChatWidgetApi | null) => {
      this.#api = api;
      if (api) for (const call of this.#pending.splice(0)) call(api);
    };

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

    open(): void {
      this.#call((api) => api.open());
    }

    minimise(): void {
      this.#call((api) => api.minimise());
    }

    end(): void {
      this.#call((api) => api.end());
    }

    forget(): void {
      // The remembered chat goes at once, even before the widget first renders.
      deps.gateway.forget?.();
      this.#call((api) => api.forget());
    }

    get unreadCount(): number {
      return this.#api?.unreadCount ?? 0;
    }

    #call(call: (api: ChatWidgetApi) => void): void {
      if (this.#api) call(this.#api);
      else if (this.isConnected) this.#pending.push(call);
    }

    #render(): void {
      const jwt = this.getAttribute("jwt") ?? undefined;
      this.#root?.render(
        createElement(ChatWidget, { jwt, deps, ref: this.#ref, onEvent: this.#emit }),
      );
    }
  }
  customElements.define(name, ChatWidgetElement);
  return ChatWidgetElement;
}
