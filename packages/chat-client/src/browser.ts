/**
 * Entry of the browser bundle (`dist/browser/chat-client.js`): the chat sessions without
 * telemetry, so a page that loads the client by script tag gets it within the 15 KB budget.
 * ES-module consumers import `@chat-widget/chat-client` (src/index.ts) and tree-shake.
 */
export { ChatSession } from "./session/chat-session.js";
export { SessionTypes } from "./session/chat-details.js";
export {
  EVENT_ALREADY_FIRED,
  MISSING_MESSAGE_ID,
  FAILED_TO_SEND_RECEIPT,
} from "./session/receipts.js";
export { LogLevel } from "./core/logger.js";
export { ChatClientError } from "./core/errors.js";
export { createWebSocketManager } from "./websocket/index.js";
export { connect } from "./namespace.js";
export { connect as default } from "./namespace.js";
