/** Timing constants and close reasons of the websocket manager (docs/protocol.md §3.5, docs/product.md §9). */

export const HEARTBEAT_INTERVAL_MS = 10_000;
export const SUBSCRIBE_RESPONSE_TIMEOUT_MS = 1_000;
/** More than this many consecutive unanswered subscribe requests is a subscription failure. */
export const MAX_UNANSWERED_SUBSCRIBE_REQUESTS = 3;
export const SUBSCRIBE_RETRY_INTERVAL_MS = 500;
/** The 5th consecutive failure response is a subscription failure. */
export const MAX_CONSECUTIVE_SUBSCRIBE_FAILURES = 5;
export const NETWORK_CHECK_INTERVAL_MS = 250;
export const OPEN_CHECK_MS = 1_000;
export const URL_VALIDITY_MS = 85_000;
export const MIN_TRANSPORT_LIFETIME_SECONDS = 300;
/** A websocket URL fetch (the app's getConnectionToken included) with no answer by then is retried. */
export const FETCH_TIMEOUT_MS = 20_000;
/** Mobile: how long after the page becomes visible a missing socket is reconnected. */
export const FOREGROUND_DELAY_MS = 500;

/** `readyState` of an open socket (the WebSocket standard's OPEN). */
export const SOCKET_OPEN = 1;

export const NORMAL_CLOSURE = 1000;

export const CloseReason = {
  HAND_OVER: "[Primary WebSocket] Closing WebSocket",
  USER_REQUEST: "[Primary] WebSocket User request to close WebSocket",
  TERMINATE: "[Primary] WebSocket Terminating WebSocket Manager",
} as const;
