/**
 * The script a page loads with one `<script>` tag: read the deployment settings from that tag,
 * register the fonts on the document and define `<chat-widget>`. Telemetry lives in a second
 * script, `chat-telemetry.js`, loaded only once a chat session exists; the rare views in a
 * third, `chat-views.js`, loaded once a chat exists (opened, or resumed).
 */
import { ChatSession, createProgressFetch, createWebSocketManager } from "@chat-widget/chat-client";
import { createClientAdapter } from "./chat/client-adapter.js";
import type { ChatSessionLike, SocketManagerFactory } from "./chat/client-adapter.js";
import { defineChatWidget } from "./element.js";
import { registerFonts } from "./fonts.js";
import { createGateway } from "./gateway.js";
import { consoleLogger } from "./logger.js";
import { createChatStorage } from "./session-storage.js";
import { loadViewsScript, viewsScriptUrl } from "./lazy-views/loader.js";
import { lazyViews } from "./lazy-views/source.js";
import { chooseLocale, loadTexts } from "./locale.js";
import { readSettings } from "./settings.js";
import type { TelemetryHost } from "./telemetry/contract.js";
import { loadTelemetryModule, telemetryScriptUrl } from "./telemetry/loader.js";
import { onPageHide, onPageRestore } from "./telemetry/page-lifecycle.js";
import { createWidgetTelemetry } from "./telemetry/widget-telemetry.js";

const script = document.currentScript as HTMLScriptElement | null;
const settings = readSettings(script, location.href);
const storage = (() => {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
})();

const telemetry = createWidgetTelemetry({
  enabled: settings.telemetry,
  endpoint: settings.telemetryEndpoint,
  // A nonce on the script tag means a strict CSP, which would refuse a Blob-URL worker.
  useSharedWorker: settings.nonce === undefined,
  logger: consoleLogger,
  load: () =>
    loadTelemetryModule(
      telemetryScriptUrl(settings.scriptUrl),
      document,
      window as TelemetryHost,
      consoleLogger,
      settings.nonce,
    ),
  onPageHide: onPageHide(window),
  onPageRestore: onPageRestore(window),
});

registerFonts(document, settings.scriptUrl, settings.nonce);
const locale = chooseLocale([
  settings.locale,
  document.documentElement.lang,
  ...navigator.languages,
]);
const texts = loadTexts(
  locale,
  settings.scriptUrl,
  (url) => fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${r.status}`)))),
  consoleLogger,
);
defineChatWidget({
  gateway: createGateway(settings, (input, init) => fetch(input, init)),
  adapter: createClientAdapter(ChatSession as unknown as ChatSessionLike, settings, consoleLogger, {
    webSocketManagerFactory: createWebSocketManager as unknown as SocketManagerFactory,
    onSession: (session, participantToken) => telemetry.attach(session, participantToken),
    progressFetch: () => createProgressFetch(),
  }),
  storage: createChatStorage(storage),
  logger: consoleLogger,
  colorScheme: settings.colorScheme,
  unreadSound: settings.unreadSound,
  titleFlash: settings.titleFlash,
  nonce: settings.nonce,
  launcher: settings.launcher,
  views: lazyViews(() =>
    loadViewsScript(
      viewsScriptUrl(settings.scriptUrl),
      document,
      window as unknown as Record<string, unknown>,
      consoleLogger,
      settings.nonce,
    ),
  ),
  loadTexts: () => texts,
});
