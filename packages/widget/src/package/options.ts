/**
 * The npm package's settings: the script tag's data- attributes as an object. Every one is
 * optional; without `server` the widget talks to the page's own origin, as the script tag does
 * to its own.
 */
import { readSettings } from "../settings.js";
import type { ColorScheme, LauncherSetting, WidgetSettings } from "../settings.js";

export interface ChatWidgetOptions {
  /** The contact centre's origin: its widget service, gateway and participant service. */
  server?: string;
  /** Where the fonts and locale tables are served; default `<server>/widget/`. */
  assetsUrl?: string;
  widgetServiceUrl?: string;
  gatewayUrl?: string;
  participantEndpoint?: string;
  /** Default `<server>/telemetry`. */
  telemetryEndpoint?: string;
  /** `false` turns telemetry off; on by default. */
  telemetry?: boolean;
  snippetId?: string;
  instanceId?: string;
  contactFlowId?: string;
  region?: string;
  /** The visitor's language, before the page's `lang` and the browser's. */
  locale?: string;
  /** `light`, `dark`, or `auto` (the default: the visitor's system's). */
  colorScheme?: ColorScheme;
  /** A chime for each message that arrives unread; off by default. */
  unreadSound?: boolean;
  /** The page's title takes turns with the unread count; off by default. */
  titleFlash?: boolean;
  /** `hidden`: no floating button; the page opens the chat itself. */
  launcher?: LauncherSetting;
  /** The page's CSP nonce, put on the widget's styles. */
  nonce?: string;
}

const onOff = (value: boolean | undefined) =>
  value === undefined ? undefined : value ? "on" : "off";

/** An absolute http(s) URL, or a clear error naming the option. */
function httpUrl(option: string, value: string, base?: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(value, base);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw new TypeError(
      `chat-widget: ${option} must be an http(s) URL, not ${JSON.stringify(value)}`,
    );
  return url;
}

/**
 * The widget's settings from the options, on a page at `pageUrl`. Throws a TypeError naming
 * the option when `server` is not an absolute http(s) URL or `assetsUrl` not a URL.
 */
export function settingsFromOptions(options: ChatWidgetOptions, pageUrl: string): WidgetSettings {
  const server = httpUrl("server", options.server ?? pageUrl).origin;
  const assets = httpUrl("assetsUrl", options.assetsUrl ?? "/widget/", `${server}/`);
  if (!assets.pathname.endsWith("/")) assets.pathname += "/";
  return readSettings(
    {
      src: new URL("chat-widget.js", assets).href,
      nonce: options.nonce,
      dataset: {
        widgetServiceUrl: options.widgetServiceUrl ?? server,
        gatewayUrl: options.gatewayUrl ?? server,
        participantEndpoint: options.participantEndpoint ?? server,
        telemetryEndpoint: options.telemetryEndpoint ?? `${server}/telemetry`,
        telemetry: onOff(options.telemetry),
        snippetId: options.snippetId,
        instanceId: options.instanceId,
        contactFlowId: options.contactFlowId,
        region: options.region,
        locale: options.locale,
        colorScheme: options.colorScheme,
        unreadSound: onOff(options.unreadSound),
        titleFlash: onOff(options.titleFlash),
        launcher: options.launcher,
      },
    },
    pageUrl,
  );
}
