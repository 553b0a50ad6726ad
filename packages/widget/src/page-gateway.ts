/** The page's gateway: made once, by the first script (main.ts) or, in the npm package, the app. */
import { createGateway } from "./gateway.js";
import type { Gateway } from "./gateway.js";
import { storageOrNull } from "./page-storage.js";
import { withPersistentChat } from "./persistent-chat.js";
import type { WidgetSettings } from "./settings.js";

/** The gateway for these settings, with the browser's fetch and, for persistent chats, storage. */
export function browserGateway(settings: WidgetSettings): Gateway {
  return withPersistentChat(
    createGateway(settings, (input, init) => fetch(input, init)),
    settings.persistentChat ? storageOrNull("localStorage") : null,
  );
}
