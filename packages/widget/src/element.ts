/**
 * The React app inside `<chat-widget>` (launcher/element.ts is the element): `mountChatWidget`
 * renders the widget into the element's shadow root. The npm package defines the element with
 * the app at once (`defineChatWidget`); the script tag loads it on intent (app-main.ts).
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { ChatWidget } from "./ChatWidget.js";
import type { WidgetDeps } from "./ChatWidget.js";
import { defineWidgetElement, ELEMENT_NAME } from "./launcher/element.js";
import type { AppMount } from "./launcher/element.js";

export { ELEMENT_NAME };

/** The widget with these dependencies, mounted in a shadow root. */
export function mountChatWidget(deps: WidgetDeps): AppMount {
  return (shadow, { ref, emit }) => {
    const root = createRoot(shadow);
    return {
      render: (jwt) => root.render(createElement(ChatWidget, { jwt, deps, ref, onEvent: emit })),
      unmount: () => root.unmount(),
    };
  };
}

/** Define the element once, its app at once; later calls (a second copy) are ignored. */
export function defineChatWidget(deps: WidgetDeps, name = ELEMENT_NAME): CustomElementConstructor {
  const app = mountChatWidget(deps);
  return defineWidgetElement({ app: () => app, forget: () => deps.gateway.forget?.() }, name);
}
