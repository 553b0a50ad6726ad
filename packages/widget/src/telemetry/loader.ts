/** Load `chat-telemetry.js` with one `<script async>`; a failure only logs. */
import type { Logger } from "../logger.js";
import { TELEMETRY_GLOBAL, TELEMETRY_SCRIPT } from "./contract.js";
import type { TelemetryHost, TelemetryModule } from "./contract.js";

export const TELEMETRY_LOAD_FAILED = "The telemetry script could not be loaded";

/** The telemetry script's URL: beside the widget script. */
export function telemetryScriptUrl(widgetScriptUrl: string): string {
  return new URL(TELEMETRY_SCRIPT, widgetScriptUrl).href;
}

export function loadTelemetryModule(
  url: string,
  doc: Document,
  host: TelemetryHost,
  logger: Logger,
): Promise<TelemetryModule | null> {
  const loaded = host[TELEMETRY_GLOBAL];
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve) => {
    const script = doc.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => {
      const module = host[TELEMETRY_GLOBAL] ?? null;
      if (!module) logger.warn(TELEMETRY_LOAD_FAILED, url);
      resolve(module);
    };
    script.onerror = () => {
      logger.warn(TELEMETRY_LOAD_FAILED, url);
      resolve(null);
    };
    (doc.head ?? doc.documentElement).appendChild(script);
  });
}
