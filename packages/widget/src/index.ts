export { ChatWidget } from "./ChatWidget.js";
export type { ChatWidgetProps, WidgetDeps } from "./ChatWidget.js";
export { LOCALES, chooseLocale, loadTexts } from "./locale.js";
export type { Locale } from "./locale.js";
export { defineChatWidget, ELEMENT_NAME } from "./element.js";
export { WidgetController } from "./state/controller.js";
export { attachmentProblem } from "./state/attachments.js";
export type { ControllerDeps } from "./state/controller.js";
export { reducer, initialState } from "./state/reducer.js";
export type { Action, WidgetState, Upload } from "./state/reducer.js";
export type { Entry } from "./state/entries.js";
export type {
  ChatWidgetApi,
  ChatWidgetElement,
  ChatWidgetEventMap,
  ChatWidgetEventName,
} from "./host-api.js";
export type { ChatAdapter, ChatConnection, ChatHandlers } from "./chat/adapter.js";
export { createClientAdapter } from "./chat/client-adapter.js";
export { readSettings, DEFAULT_REGION } from "./settings.js";
export type { WidgetSettings } from "./settings.js";
export { decodeJwtAttributes } from "./jwt.js";
export { createGateway } from "./gateway.js";
export type { Gateway } from "./gateway.js";
export { createChatStorage, STORAGE_KEY } from "./session-storage.js";
export type { ChatStorage, StoredChat } from "./session-storage.js";
export { registerFonts } from "./fonts.js";
export { Text, en, fill } from "./texts.js";
export type { Texts, TextKey } from "./texts.js";
export { TextsContext } from "./texts-context.js";
