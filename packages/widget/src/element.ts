/**
 * The custom-element shell, apart from the React tree: r2wc registers `chat-widget` with an
 * open shadow root and turns the `jwt` attribute into the `jwt` prop.
 */
import r2wc from "@r2wc/react-to-web-component";
import { createElement } from "react";
import { ChatWidget } from "./ChatWidget.js";
import type { ControllerDeps } from "./state/controller.js";

export const ELEMENT_NAME = "chat-widget";

/** Define the element once; later calls (a second copy of the script) are ignored. */
export function defineChatWidget(
  deps: ControllerDeps,
  name = ELEMENT_NAME,
): CustomElementConstructor {
  const existing = customElements.get(name);
  if (existing) return existing;
  const Bound = ({ jwt }: { jwt?: string }) => createElement(ChatWidget, { jwt, deps });
  const element = r2wc(Bound, { shadow: "open", props: { jwt: "string" } });
  customElements.define(name, element);
  return element;
}
