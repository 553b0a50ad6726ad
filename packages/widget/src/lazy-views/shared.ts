/**
 * The modules `chat-views.js` takes from `chat-widget.js` (its build maps these imports to
 * `window.__chatWidgetShared.<key>`; see vite.views.config.ts): a second React would not
 * render into the first one's tree, a second texts context would never see the visitor's
 * language.
 */
import * as react from "react";
import * as jsxRuntime from "react/jsx-runtime";
import * as textsContext from "../texts-context.js";
import { SHARED_GLOBAL } from "./contract.js";

export const sharedModules = { react, jsxRuntime, textsContext };

export function shareModules(host: Record<string, unknown>): void {
  host[SHARED_GLOBAL] ??= sharedModules;
}
