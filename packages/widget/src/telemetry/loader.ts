/** Load `chat-telemetry.js` with one `<script async>`; a failure only logs. */
import { laterScriptUrl, TELEMETRY_VERSION } from "../later-scripts.js";
import type { Logger } from "../logger.js";
import { loadScriptGlobal } from "../script-global.js";
import { TELEMETRY_FUNCTIONS, TELEMETRY_GLOBAL, TELEMETRY_SCRIPT } from "./contract.js";
import type { TelemetryHost, TelemetryModule } from "./contract.js";

export const TELEMETRY_LOAD_FAILED = "The telemetry script could not be loaded";

/** The telemetry script's URL: beside the widget script. */
export function telemetryScriptUrl(widgetScriptUrl: string, version = TELEMETRY_VERSION): string {
  return laterScriptUrl(TELEMETRY_SCRIPT, widgetScriptUrl, version);
}

export function loadTelemetryModule(
  url: string,
  doc: Document,
  host: TelemetryHost,
  logger: Logger,
  nonce?: string,
): Promise<TelemetryModule | null> {
  return loadScriptGlobal<TelemetryModule>(
    url,
    doc,
    host,
    { name: TELEMETRY_GLOBAL, functions: TELEMETRY_FUNCTIONS },
    logger,
    TELEMETRY_LOAD_FAILED,
    nonce,
  );
}
