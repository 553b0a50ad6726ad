/**
 * The modules `chat-views.js` takes from `chat-widget.js` (its build maps these imports to
 * `window.__chatWidgetShared.<key>`; see vite.views.config.ts): a second React would not
 * render into the first one's tree, a second texts context would never see the visitor's
 * language.
 */
import * as react from "react";
import * as jsxRuntime from "react/jsx-runtime";
import * as textsContext from "../texts-context.js";
import { hasFunctions } from "../script-global.js";
import { SHARED_GLOBAL } from "./contract.js";

export const sharedModules = { react, jsxRuntime, textsContext };

/**
 * Share the modules, unless a first copy of the widget on the page shared its own already
 * (the views must render with the React of the tree they render into). Anything else under the
 * name, such as a page element with that id (DOM clobbering), is replaced.
 */
export function shareModules(host: Record<string, unknown>): void {
  const shared = host[SHARED_GLOBAL] as { react?: unknown } | undefined;
  if (!hasFunctions(shared?.react, ["createElement"])) host[SHARED_GLOBAL] = sharedModules;
}
