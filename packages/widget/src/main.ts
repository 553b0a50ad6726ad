/**
 * The script a page loads with one `<script>` tag (issue 61: a few KB, no framework): read the
 * deployment settings from that tag, define `<chat-widget>` and paint its launcher. The rest —
 * React, the chat client, the window (`chat-app.js`, app-main.ts) — loads when the visitor
 * reaches for the launcher (pointer over it, focus, a click), when the host page calls
 * open(), or at once when this tab holds a chat (the visitor went on to another page). A click
 * before it is there starts the chat meanwhile (launcher/head-start.ts).
 */
import { consoleLogger } from "./logger.js";
import { earlyConnection } from "./launcher/early-connection.js";
import { headStart } from "./launcher/head-start.js";
import { APP_FUNCTIONS, APP_GLOBAL, APP_LOAD_FAILED, APP_SCRIPT } from "./launcher/app-contract.js";
import type { ChatApp } from "./launcher/app-contract.js";
import { appLoader } from "./launcher/app-loader.js";
import { defineWidgetElement } from "./launcher/element.js";
import { paintLauncher } from "./launcher/paint.js";
import { whenIdle } from "./launcher/idle.js";
import { preconnect, preloadScript } from "./launcher/preconnect.js";
import { launcherTexts } from "./launcher/texts.js";
import { APP_VERSION, VIEWS_VERSION, laterScriptUrl } from "./later-scripts.js";
import { VIEWS_SCRIPT } from "./lazy-views/contract.js";
import { fetchLocaleTable, localeTableUrl, visitorLocale } from "./locale.js";
import { browserGateway } from "./page-gateway.js";
import { tabChatStored, tabChatUnread } from "./page-storage.js";
import { loadScriptGlobal } from "./script-global.js";
import { readSettings } from "./settings.js";
import { startChat } from "./state/start-chat.js";

const script = document.currentScript as HTMLScriptElement | null;
const settings = readSettings(script, location.href);
const locale = visitorLocale(settings.locale);
const texts = launcherTexts(locale);
// The visitor's locale table is asked for with the app, so the window opens in their language.
const tableUrl = localeTableUrl(locale, settings.scriptUrl);
let table: Promise<unknown> | null = null;
const localeTable = (url: string) => (url === tableUrl ? table : null);
// The page's one gateway: a click before the app starts the chat with it at once.
const gateway = browserGateway(settings);
// Its connection is asked for as soon as it has started, still before the app (early-connection.ts).
const connection = earlyConnection(settings.participantEndpoint, (input, init) =>
  fetch(input, init),
);
const begun = headStart(
  (jwt) =>
    startChat(gateway, jwt, consoleLogger).then((chat) => {
      connection.begin(chat.ParticipantToken);
      return chat;
    }),
  // One nobody takes is ended (one that failed to start has nothing to end).
  (chat) => void chat.then((c) => connection.end(c.ParticipantToken)).catch(() => {}),
);

/** The rare views (chat-views.js) are wanted once a chat exists: their download goes out with the app's. */
const preloadViews = () =>
  preloadScript(
    document,
    laterScriptUrl(VIEWS_SCRIPT, settings.scriptUrl, VIEWS_VERSION),
    settings.nonce,
  );
if (tabChatStored()) preloadViews();

/** The app, loaded once a page; tried again after a failure. */
const loadApp = appLoader<ChatApp>(
  () => {
    if (locale !== "en" && !table) {
      const asked = fetchLocaleTable(tableUrl);
      table = asked;
      // One that failed is dropped: the app asks for it itself.
      asked.catch(() => {
        if (table === asked) table = null;
      });
    }
    return loadScriptGlobal<ChatApp>(
      laterScriptUrl(APP_SCRIPT, settings.scriptUrl, APP_VERSION),
      document,
      window as unknown as Record<string, unknown>,
      { name: APP_GLOBAL, functions: APP_FUNCTIONS },
      consoleLogger,
      APP_LOAD_FAILED,
      settings.nonce,
    );
  },
  (app) => app.mount(settings, { gateway, headStart: begun, connection, localeTable }),
  consoleLogger,
);

defineWidgetElement({
  app: loadApp,
  forget: () => {
    begun.discard();
    gateway.forget?.();
  },
  facade: {
    chatExists: tabChatStored,
    unread: tabChatUnread,
    begin: (jwt) => {
      preloadViews();
      return begun.begin(jwt);
    },
    preload: settings.preload === "idle" ? (load) => whenIdle(window, load) : undefined,
    paint: (shadow, intent, click) =>
      paintLauncher(shadow, {
        texts,
        colorScheme: settings.colorScheme,
        nonce: settings.nonce,
        hidden: settings.launcher === "hidden",
        intent: () => {
          preconnect(document, [settings.gatewayUrl, settings.widgetServiceUrl]);
          intent();
        },
        click,
      }),
  },
});
