/**
 * Client errors: one base error with a `name` (the spec's error names), a `code` and an
 * optional `cause`; small factories build each kind (livekit `room/errors.ts` style).
 */

/** The spec's validation error names, plus the client's own state errors. */
export type ChatErrorName =
  | "IllegalArgument"
  | "ValueError"
  | "UnImplementedMethod"
  | "NoActiveConnection"
  | "CONN_ACK_FAILED";

export class ChatClientError extends Error {
  override readonly name: ChatErrorName;
  /** Same as `name`; kept for callers that switch on a code or, like request errors, a type. */
  readonly code: ChatErrorName;
  readonly type: ChatErrorName;
  /** The offending argument, for IllegalArgument errors. */
  readonly argument?: unknown;

  constructor(
    name: ChatErrorName,
    message: string,
    options?: { cause?: unknown; argument?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = name;
    this.type = name;
    if (options && "argument" in options) this.argument = options.argument;
  }
}

export const illegalArgument = (message: string, argument?: unknown): ChatClientError =>
  new ChatClientError("IllegalArgument", message, { argument });

export const valueError = (message: string): ChatClientError =>
  new ChatClientError("ValueError", message);

export const unImplementedMethod = (method: string): ChatClientError =>
  new ChatClientError("UnImplementedMethod", `${method} is not implemented`);

/** "Failed to call X, No active connection" (docs/product.md §5, §8). */
export const noActiveConnection = (method: string): ChatClientError =>
  new ChatClientError("NoActiveConnection", `Failed to call ${method}, No active connection`);

/**
 * A failed participant-service request as chatjs exposes it (docs/protocol.md §2.4):
 * `{ type, message, stack, statusCode, metadata }`.
 */
export interface RequestError {
  /** The error name, derived like the AWS SDK (e.g. "AccessDeniedException", or "400"). */
  type: string;
  message: string;
  stack: string[];
  statusCode?: number;
  metadata?: unknown;
}

export function isRequestError(value: unknown): value is RequestError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RequestError).type === "string" &&
    Array.isArray((value as RequestError).stack)
  );
}

export function toRequestError(type: string, message: string, statusCode?: number): RequestError {
  return { type, message, stack: (new Error(message).stack ?? "").split("\n"), statusCode };
}

/**
 * Whether a failure is a definite answer that trying again cannot change: the client's own
 * validation error, or a 4xx from the service (403 AccessDenied: the participant left or the
 * chat ended) other than 408 and 429. No answer at all, a timeout, 429 and 5xx are transient.
 */
export function isFinalError(error: unknown): boolean {
  if (error instanceof ChatClientError) return true;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return (
    typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429
  );
}
