/**
 * Error responses of the feature routes: the AWS REST-JSON shape (protocol §1.11) with the
 * name in `x-amzn-ErrorType` and in the body. Bad input is always a 4xx naming the problem.
 */
import { ERROR_TYPE_HEADER, REQUEST_ID_HEADER } from "@chat-widget/protocol";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { errorBody, isServiceError, ServiceError } from "../errors.js";

export function sendServiceError(reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error.retryAfterSeconds !== undefined)
    reply.header("retry-after", String(error.retryAfterSeconds));
  return reply
    .code(error.statusCode)
    .header(ERROR_TYPE_HEADER, error.type)
    .header(REQUEST_ID_HEADER, String(reply.request.id))
    .type("application/json")
    .send(errorBody(error));
}

/** Fastify error handler for the feature plugins (set per plugin scope). */
export function featureErrorHandler(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (isServiceError(error)) return sendServiceError(reply, error);
  const e = error as FastifyError;
  if (e.validation) {
    const where = e.validationContext ?? "body";
    const text = e.message.startsWith(where) ? e.message : `${where} ${e.message}`;
    return sendServiceError(reply, new ServiceError("ValidationException", text));
  }
  // PostgreSQL "data exception" (class 22): a value the store cannot take is bad input.
  if (typeof e.code === "string" && /^22[0-9A-Z]{3}$/.test(e.code)) {
    return sendServiceError(
      reply,
      new ServiceError("ValidationException", "The request holds a value that cannot be stored."),
    );
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const type =
      status === 403
        ? "AccessDeniedException"
        : status === 404
          ? "ResourceNotFoundException"
          : "ValidationException";
    const err = new ServiceError(type, e.message || "The request is not valid.");
    return sendServiceError(reply, Object.assign(err, { statusCode: status }));
  }
  request.log.error({ err: error }, "feature route failed");
  return sendServiceError(
    reply,
    new ServiceError("InternalServerException", "Internal server error"),
  );
}
