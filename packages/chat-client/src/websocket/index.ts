/**
 * The websocket manager: `createWebSocketManager({ env?, logger? })` returns a
 * `WebSocketManager` (see `types.ts`). Everything else in this folder is internal.
 */
export { createWebSocketManager } from "./manager.js";
export type { DefaultWebSocketManager, ManagerState, WebSocketManagerOptions } from "./manager.js";
export { createReconnectPolicy } from "./reconnect-policy.js";
export type {
  ReconnectContext,
  ReconnectPolicy,
  ReconnectPolicyOptions,
} from "./reconnect-policy.js";
export { isAllowedWebSocketUrl } from "./url.js";
export { WebSocketManagerError } from "./errors.js";
export type { WebSocketManagerErrorCode } from "./errors.js";
export {
  CloseReason,
  HEARTBEAT_INTERVAL_MS,
  MIN_TRANSPORT_LIFETIME_SECONDS,
  URL_VALIDITY_MS,
} from "./constants.js";
export type {
  TransportFetcher,
  Unsubscribe,
  WebSocketManager,
  WebSocketTransport,
} from "./types.js";
