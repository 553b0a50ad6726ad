/** Limits of the hosted participant service (docs/protocol.md §1.14), enforced by the local contact centre. */
export const Limits = {
  TEXT_CONTENT_MAX: 1024,
  JSON_CONTENT_MAX: 12000,
  INTERACTIVE_RESPONSE_MAX: 12288,
  CONTENT_MAX: 16384,
  CONTENT_TYPE_MAX: 100,
  ATTACHMENT_MAX_BYTES: 20 * 1024 * 1024,
  ATTACHMENT_NAME_MAX: 256,
  ATTACHMENT_CONTENT_TYPE_MAX: 255,
  /** The SDK model's GetTranscript range is 0–100 (0: an empty page; server docs/wire-decisions.md). */
  MAX_RESULTS_MIN: 0,
  MAX_RESULTS_MAX: 100,
  CLIENT_TOKEN_MAX: 500,
  TOKEN_MAX: 1000,
  NEXT_TOKEN_MAX: 1000,
  URL_EXPIRY_SECONDS_MIN: 5,
  URL_EXPIRY_SECONDS_MAX: 300,
  /** Connection must be created within 5 minutes of start-chat. */
  CONNECT_WINDOW_MS: 5 * 60 * 1000,
  /** Connection token lifetime: 1 day. */
  CONNECTION_TOKEN_TTL_MS: 24 * 60 * 60 * 1000,
  /** Websocket URL connect window (AWS says 100 s). */
  WEBSOCKET_URL_TTL_MS: 100 * 1000,
} as const;
