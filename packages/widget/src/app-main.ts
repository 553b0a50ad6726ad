/**
 * The second script, `chat-app.js`, loaded by the first (main.ts) on the visitor's intent: the
 * React app with the chat client and the window. It registers the app (launcher/app-contract.ts);
 * the first script mounts it in its elements. Telemetry lives in a third script,
 * `chat-telemetry.js`, loaded once a chat session exists; the rare views in a fourth,
 * `chat-views.js`, loaded once a chat exists (opened, or resumed).
 */
import { browserDeps } from "./browser-deps.js";
import { mountChatWidget } from "./element.js";
import { registerFonts } from "./fonts.js";
import { APP_GLOBAL, type ChatApp } from "./launcher/app-contract.js";
import { loadViewsScript, viewsScriptUrl } from "./lazy-views/loader.js";
import { consoleLogger } from "./logger.js";
import type { TelemetryHost } from "./telemetry/contract.js";
import { loadTelemetryModule, telemetryScriptUrl } from "./telemetry/loader.js";

const app: ChatApp = {
  mount(settings, first) {
    registerFonts(document, settings.scriptUrl, settings.nonce);
    return mountChatWidget(
      browserDeps(
        settings,
        {
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
        },
        first,
      ),
    );
  },
};

(window as unknown as Record<string, unknown>)[APP_GLOBAL] = app;
