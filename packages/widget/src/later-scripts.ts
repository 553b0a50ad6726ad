/**
 * The URLs of the widget's later scripts (chat-app.js, chat-views.js, chat-telemetry.js), beside
 * the first one.
 * The script-tag build writes each one's content hash into this script (vite.config.ts), and
 * the URL carries it: a cache can never pair this script with another build's later ones.
 * Unbuilt (tests), there is no version.
 */
declare const __CHAT_VIEWS_VERSION__: string | undefined;
declare const __CHAT_TELEMETRY_VERSION__: string | undefined;
declare const __CHAT_APP_VERSION__: string | undefined;

export const VIEWS_VERSION =
  typeof __CHAT_VIEWS_VERSION__ === "string" ? __CHAT_VIEWS_VERSION__ : undefined;
export const APP_VERSION =
  typeof __CHAT_APP_VERSION__ === "string" ? __CHAT_APP_VERSION__ : undefined;
export const TELEMETRY_VERSION =
  typeof __CHAT_TELEMETRY_VERSION__ === "string" ? __CHAT_TELEMETRY_VERSION__ : undefined;

/** `file` beside the widget script, with `?v=<version>` when there is one. */
export function laterScriptUrl(file: string, widgetScriptUrl: string, version?: string): string {
  const url = new URL(file, widgetScriptUrl);
  if (version) url.search = `v=${version}`;
  return url.href;
}
