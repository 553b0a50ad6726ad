/** Deployment settings from the loading script tag's data- attributes (docs/decisions.md #1). */
import { DemoIds } from "@chat-widget/protocol";

export interface WidgetSettings {
  widgetServiceUrl: string;
  gatewayUrl: string;
  snippetId: string;
  instanceId: string;
  contactFlowId: string;
  region: string;
  participantEndpoint: string;
  /** The telemetry endpoint; the client posts to its `/auth`, `/put-metrics`, … (docs/product.md §7). */
  telemetryEndpoint: string;
  /** `data-telemetry="off"` turns telemetry off; on by default. */
  telemetry: boolean;
  /** Where the script itself was loaded from; fonts and locales are resolved against it. */
  scriptUrl: string;
  /** `data-locale`: the visitor's language, before the page's `lang` and the browser's (issue 24). */
  locale: string | undefined;
  /** `data-color-scheme`: `light`, `dark`, or `auto` (the default: the visitor's system's). */
  colorScheme: ColorScheme;
  /** `data-unread-sound="on"`: a chime for each unread message; off by default. */
  unreadSound: boolean;
  /** `data-title-flash="on"`: the page's title takes turns with the unread count; off by default. */
  titleFlash: boolean;
  /** `data-launcher="hidden"`: no floating button, the host page opens the chat (issue 25). */
  launcher: LauncherSetting;
  /** The script tag's CSP nonce: given to what the widget adds (styles, its later scripts). */
  nonce: string | undefined;
  /** `data-persistent-chat="on"`: a new chat continues the visitor's last one (issue 26). */
  persistentChat: boolean;
  /**
   * `data-preload="idle"`: the chat (React, the client, the window) loads once the page is idle;
   * by default only on the visitor's intent: pointer over the launcher, focus, a click (issue 61).
   */
  preload: PreloadSetting;
}

export type ColorScheme = "auto" | "light" | "dark";
export type LauncherSetting = "shown" | "hidden";
export type PreloadSetting = "intent" | "idle";

export const DEFAULT_REGION = "eu-west-2";

/** The subset of a script element the settings are read from. */
export interface ScriptLike {
  readonly src: string;
  readonly nonce?: string;
  readonly dataset: Record<string, string | undefined>;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Read the settings from `document.currentScript` (captured at load), defaulting to the local
 * contact centre on the script's own origin and its demo ids; without a script, `fallbackUrl`.
 */
export function readSettings(script: ScriptLike | null, fallbackUrl: string): WidgetSettings {
  const scriptUrl = nonEmpty(script?.src) ?? fallbackUrl;
  const origin = new URL(scriptUrl, fallbackUrl).origin;
  const data = script?.dataset ?? {};
  const pick = (key: string, fallback: string) => nonEmpty(data[key]) ?? fallback;
  return {
    widgetServiceUrl: pick("widgetServiceUrl", origin),
    gatewayUrl: pick("gatewayUrl", origin),
    snippetId: pick("snippetId", DemoIds.SNIPPET_ID),
    instanceId: pick("instanceId", DemoIds.INSTANCE_ID),
    contactFlowId: pick("contactFlowId", DemoIds.CONTACT_FLOW_ID),
    region: pick("region", DEFAULT_REGION),
    participantEndpoint: pick("participantEndpoint", origin),
    // The contact centre serves telemetry at <origin>/telemetry (its /telemetry/put-metrics, …).
    telemetryEndpoint: pick("telemetryEndpoint", `${origin}/telemetry`),
    telemetry: pick("telemetry", "on").toLowerCase() !== "off",
    scriptUrl: new URL(scriptUrl, fallbackUrl).href,
    locale: nonEmpty(data.locale),
    colorScheme: colorScheme(data.colorScheme),
    unreadSound: pick("unreadSound", "off").toLowerCase() === "on",
    titleFlash: pick("titleFlash", "off").toLowerCase() === "on",
    launcher: pick("launcher", "shown").toLowerCase() === "hidden" ? "hidden" : "shown",
    nonce: nonEmpty(script?.nonce),
    persistentChat: pick("persistentChat", "off").toLowerCase() === "on",
    preload: pick("preload", "intent").toLowerCase() === "idle" ? "idle" : "intent",
  };
}

/** `light` or `dark` as written (any case); anything else follows the visitor's system. */
function colorScheme(value: string | undefined): ColorScheme {
  const scheme = nonEmpty(value)?.toLowerCase();
  return scheme === "light" || scheme === "dark" ? scheme : "auto";
}

/** Join a base URL (which may carry a path prefix) and an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}
