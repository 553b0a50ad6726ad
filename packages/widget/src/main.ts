/**
 * The script a page loads with one `<script>` tag: read the deployment settings from that tag,
 * register the fonts on the document and define `<chat-widget>`. Telemetry lives in a second
 * script, `chat-telemetry.js`, loaded only once a chat session exists; the rare views in a
 * third, `chat-views.js`, loaded once a chat exists (opened, or resumed).
 */
import { browserDeps } from "./browser-deps.js";
import { defineChatWidget } from "./element.js";
import { registerFonts } from "./fonts.js";
import { loadViewsScript, viewsScriptUrl } from "./lazy-views/loader.js";
import { consoleLogger } from "./logger.js";
import { readSettings } from "./settings.js";
import type { TelemetryHost } from "./telemetry/contract.js";
import { loadTelemetryModule, telemetryScriptUrl } from "./telemetry/loader.js";

const script = document.currentScript as HTMLScriptElement | null;
const settings = readSettings(script, location.href);

registerFonts(document, settings.scriptUrl, settings.nonce);
defineChatWidget(
  browserDeps(settings, {
    telemetry: () =>
      loadTelemetryModule(
        telemetryScriptUrl(settings.scriptUrl),
        document,
        window as TelemetryHost,
        consoleLogger,
        settings.nonce,
      ),
    views: () =>
      loadViewsScript(
        viewsScriptUrl(settings.scriptUrl),
        document,
        window as unknown as Record<string, unknown>,
        consoleLogger,
        settings.nonce,
      ),
  }),
);
