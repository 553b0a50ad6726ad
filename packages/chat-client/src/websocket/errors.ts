/** The manager's own errors: one class with a `code`, and the original `cause` when there is one. */

export type WebSocketManagerErrorCode =
  | "MISSING_URL"
  | "INVALID_URL"
  | "INVALID_LIFETIME"
  | "SOCKET_CREATE_FAILED"
  | "FETCH_TIMEOUT"
  | "TERMINATED";

export class WebSocketManagerError extends Error {
  override readonly name = "WebSocketManagerError";
  readonly code: WebSocketManagerErrorCode;

  constructor(code: WebSocketManagerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
