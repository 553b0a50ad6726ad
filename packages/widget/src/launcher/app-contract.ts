/**
 * The second script, `chat-app.js` (app-main.ts): React, the chat client and the window. It
 * registers a global the first script (main.ts) takes the app from, once the visitor reaches
 * for the launcher (issue 61).
 */
import type { FirstScriptParts } from "../browser-deps.js";
import type { WidgetSettings } from "../settings.js";
import type { AppMount } from "./element.js";

export const APP_SCRIPT = "chat-app.js";
export const APP_GLOBAL = "__chatWidgetApp";
export const APP_FUNCTIONS = ["mount"] as const;
export const APP_LOAD_FAILED = "The chat could not be loaded";

export interface ChatApp {
  /**
   * The widget for these settings (its fonts registered, its client made), with the gateway
   * the first script made and the chat it may have begun: once a page.
   */
  mount(settings: WidgetSettings, first: FirstScriptParts): AppMount;
}
