/**
 * `<chat-widget>` for a site that bundles its scripts: define the element with the options the
 * script tag's data- attributes would give. Nothing happens on import; call it in the browser.
 *
 * ```ts
 * import { defineChatWidgetElement } from "@chat-widget/widget/element";
 * defineChatWidgetElement({ server: "https://chat.example.com" });
 * ```
 */
import { browserDeps } from "../browser-deps.js";
import { defineChatWidget, ELEMENT_NAME } from "../element.js";
import { registerFonts } from "../fonts.js";
import { moduleLoaders } from "./loaders.js";
import { settingsFromOptions } from "./options.js";
import type { ChatWidgetOptions } from "./options.js";

export { ELEMENT_NAME };
export type { ChatWidgetOptions };

/** Define `<chat-widget>` (or `name`) once; a second call returns the element already defined. */
export function defineChatWidgetElement(
  options: ChatWidgetOptions = {},
  name = ELEMENT_NAME,
): CustomElementConstructor {
  const existing = customElements.get(name);
  if (existing) return existing;
  const settings = settingsFromOptions(options, location.href);
  registerFonts(document, settings.scriptUrl, settings.nonce);
  return defineChatWidget(browserDeps(settings, moduleLoaders), name);
}
