/**
 * The rare views (design: "what is rarely needed … may come later as chunks"): a second script,
 * `chat-views.js`, beside `chat-widget.js`, that registers them on `window.__chatWidgetViews`.
 * It brings no React of its own: it takes React, its JSX runtime and the texts context from
 * `window.__chatWidgetShared`, which `chat-widget.js` sets before loading it.
 */
import type * as Views from "./entry.js";

export type LazyViews = typeof Views;

/** The global `chat-views.js` registers its views on. */
export const VIEWS_GLOBAL = "__chatWidgetViews";
/** The views a registered global must have (anything else there is not ours). */
export const VIEWS_FUNCTIONS = [
  "Attachment",
  "Choice",
  "DownloadTranscript",
  "Markdown",
  "PageReport",
  "Template",
  "TranscriptWindow",
  "UnreadAlerts",
];
/** The views script's file name, beside `chat-widget.js`. */
export const VIEWS_SCRIPT = "chat-views.js";
/** The global holding the modules both scripts use: one React, one texts context. */
export const SHARED_GLOBAL = "__chatWidgetShared";
