/**
 * Everything the widget needs in a visitor's browser, built from its settings: the gateway, the
 * chat client, the stored chat, telemetry, the visitor's texts. Shared by the script tag
 * (main.ts, which loads the rare views and telemetry as scripts beside itself) and the npm
 * package (package/, which imports them as modules). Called only in a browser, never on import.
 */
import { ChatSession, createProgressFetch, createWebSocketManager } from "@chat-widget/chat-client";
import type { WidgetDeps } from "./ChatWidget.js";
import { createClientAdapter } from "./chat/client-adapter.js";
import type { ChatSessionLike, SocketManagerFactory } from "./chat/client-adapter.js";
import type { Gateway } from "./gateway.js";
import type { EarlyConnection } from "./launcher/early-connection.js";
import type { HeadStart } from "./launcher/head-start.js";
import type { LazyViews } from "./lazy-views/contract.js";
import { lazyViews } from "./lazy-views/source.js";
import { fetchLocaleTable, loadTexts, visitorLocale } from "./locale.js";
import { consoleLogger } from "./logger.js";
import { browserGateway } from "./page-gateway.js";
import { storageOrNull } from "./page-storage.js";
import { createChatStorage } from "./session-storage.js";
import type { WidgetSettings } from "./settings.js";
import type { TelemetryModule } from "./telemetry/contract.js";
import { onPageHide, onPageRestore } from "./telemetry/page-lifecycle.js";
import { createWidgetTelemetry } from "./telemetry/widget-telemetry.js";

export interface Loaders {
  /** The rare views (chat-views.js, or the module), wanted once a chat exists. */
  views: () => Promise<LazyViews | null>;
  /** The chat client's telemetry, wanted once a chat session exists. */
  telemetry: () => Promise<TelemetryModule | null>;
}

/**
 * What the first script made before the app (main.ts): the page's one gateway, a chat begun
 * and its connection asked for.
 */
export interface FirstScriptParts {
  gateway: Gateway;
  headStart: Pick<HeadStart, "take">;
  connection?: Pick<EarlyConnection, "wrap" | "wrapSocket">;
  /** The visitor's locale table if the first script asked for it with the app (else null). */
  localeTable?: (url: string) => Promise<unknown> | null;
}

/** Build the widget's dependencies; the visitor's texts start loading at once. */
export function browserDeps(
  settings: WidgetSettings,
  loaders: Loaders,
  first?: FirstScriptParts,
): WidgetDeps {
  const telemetry = createWidgetTelemetry({
    enabled: settings.telemetry,
    endpoint: settings.telemetryEndpoint,
    // A nonce means a strict CSP, which would refuse a Blob-URL worker.
    useSharedWorker: settings.nonce === undefined,
    logger: consoleLogger,
    load: loaders.telemetry,
    onPageHide: onPageHide(window),
    onPageRestore: onPageRestore(window),
  });
  const texts = loadTexts(
    visitorLocale(settings.locale),
    settings.scriptUrl,
    (url) => first?.localeTable?.(url) ?? fetchLocaleTable(url),
    consoleLogger,
  );
  return {
    gateway: first?.gateway ?? browserGateway(settings),
    headStart: first?.headStart,
    adapter: createClientAdapter(
      ChatSession as unknown as ChatSessionLike,
      settings,
      consoleLogger,
      {
        webSocketManagerFactory: createWebSocketManager as unknown as SocketManagerFactory,
        onSession: (session, participantToken) => telemetry.attach(session, participantToken),
        progressFetch: () => createProgressFetch(),
        wrapFetch: first?.connection?.wrap,
        wrapWebSocket: first?.connection?.wrapSocket,
      },
    ),
    storage: createChatStorage(storageOrNull("sessionStorage")),
    logger: consoleLogger,
    colorScheme: settings.colorScheme,
    unreadSound: settings.unreadSound,
    titleFlash: settings.titleFlash,
    nonce: settings.nonce,
    launcher: settings.launcher,
    views: lazyViews(loaders.views),
    loadTexts: () => texts,
  };
}
