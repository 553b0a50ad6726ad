/**
 * The server's one catalogue of coded errors (AWS REST-JSON names and statuses, docs/protocol.md §1.11).
 * Throw these anywhere; the error handler turns them into `x-amzn-ErrorType` plus
 * `{"__type", "message"}`.
 */
import { AwsErrorStatus, type AwsErrorName } from "@chat-widget/protocol";

export class ServiceError extends Error {
  readonly type: AwsErrorName;
  readonly statusCode: number;
  readonly extra: Record<string, string>;
  /** Seconds a throttled caller should wait: sent as `Retry-After`. */
  retryAfterSeconds?: number;

  constructor(type: AwsErrorName, message: string, extra: Record<string, string> = {}) {
    super(message);
    this.name = type;
    this.type = type;
    this.statusCode = AwsErrorStatus[type];
    this.extra = extra;
  }
}

export const Errors = {
  validation: (message: string) => new ServiceError("ValidationException", message),
  accessDenied: (message = "You do not have sufficient access to perform this action.") =>
    new ServiceError("AccessDeniedException", message),
  notFound: (message: string, resourceId?: string, resourceType?: string) =>
    new ServiceError("ResourceNotFoundException", message, {
      ...(resourceId === undefined ? {} : { ResourceId: resourceId }),
      ...(resourceType === undefined ? {} : { ResourceType: resourceType }),
    }),
  conflict: (message: string) => new ServiceError("ConflictException", message),
  throttling: (message = "Rate exceeded", retryAfterSeconds?: number) => {
    const error = new ServiceError("ThrottlingException", message);
    if (retryAfterSeconds !== undefined) error.retryAfterSeconds = retryAfterSeconds;
    return error;
  },
  /** The server is at capacity for this kind of request; sent with `Retry-After`. */
  unavailable: (message: string, retryAfterSeconds: number) => {
    const error = new ServiceError("ServiceUnavailableException", message);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  },
  quotaExceeded: (message: string) => new ServiceError("ServiceQuotaExceededException", message),
  internal: (message = "Internal server error") =>
    new ServiceError("InternalServerException", message),
} as const;

/** The body of an error response. */
export function errorBody(error: ServiceError): Record<string, string> {
  return { __type: error.type, message: error.message, ...error.extra };
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
