/** The AWS REST-JSON error shape (docs/protocol.md §1.11). */

export const AwsErrorStatus = {
  ValidationException: 400,
  ServiceQuotaExceededException: 402,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  ThrottlingException: 429,
  InternalServerException: 500,
  /** The server is at capacity (e.g. concurrent attachment uploads); retry after `Retry-After`. */
  ServiceUnavailableException: 503,
} as const;
export type AwsErrorName = keyof typeof AwsErrorStatus;

/** Header naming the error; browsers read it only when exposed, so the body names it too. */
export const ERROR_TYPE_HEADER = "x-amzn-ErrorType";
export const REQUEST_ID_HEADER = "x-amzn-RequestId";

export interface AwsErrorBody {
  __type: AwsErrorName | string;
  message: string;
  ResourceId?: string;
  ResourceType?: string;
}

/**
 * Derive the error name as the AWS SDK does: header, then body `code`, then `__type`;
 * text after `,` or `:` dropped, only the part after `#` kept; else the status as text.
 */
export function parseAwsErrorName(
  status: number,
  headerValue: string | null | undefined,
  body: unknown,
): string {
  const fromBody = (key: string): unknown =>
    typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  const raw = [headerValue, fromBody("code"), fromBody("__type")].find(
    (v): v is string => typeof v === "string" && v.length > 0,
  );
  if (raw === undefined) return String(status);
  let name = raw.split(",")[0]!.split(":")[0]!;
  const hash = name.indexOf("#");
  if (hash >= 0) name = name.slice(hash + 1);
  return name.trim();
}

/** The message of an AWS error body: `message`, else `Message`. */
export function parseAwsErrorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const m = b.message ?? b.Message;
  return typeof m === "string" ? m : undefined;
}
