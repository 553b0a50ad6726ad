/**
 * `@chat-widget/widget`: the React component and the types of the widget's host API. The
 * custom element is `@chat-widget/widget/element`; the script-tag build is
 * `@chat-widget/widget/chat-widget.js`. Importing touches no browser global.
 */
export { ChatWidget } from "./ChatWidget.js";
export type { ChatWidgetProps } from "./ChatWidget.js";
export { settingsFromOptions } from "./options.js";
export type { ChatWidgetOptions } from "./options.js";
export type {
  ChatWidgetApi,
  ChatWidgetElement,
  ChatWidgetEventMap,
  ChatWidgetEventName,
} from "../host-api.js";
export type { Entry } from "../state/entries.js";
export type { ColorScheme, LauncherSetting, WidgetSettings } from "../settings.js";
