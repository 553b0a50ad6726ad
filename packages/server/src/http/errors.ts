import { ERROR_TYPE_HEADER, REQUEST_ID_HEADER } from "@chat-widget/protocol";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServiceError } from "../errors.js";
import { Errors, errorBody, isServiceError } from "../errors.js";

export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) {
    reply.header("retry-after", String(error.retryAfterSeconds));
  }
  return reply
    .code(error.statusCode)
    .header(ERROR_TYPE_HEADER, error.type)
    .header("content-type", "application/json; charset=utf-8")
    .send(errorBody(error));
}

/**
 * Fastify's own client errors in the AWS shape: validation, bad JSON and too-large bodies are
 * ValidationException; 403, 404 and 429 keep their meaning.
 */
function toServiceError(error: FastifyError): ServiceError | null {
  if (error.validation) {
    const where = error.validationContext ?? "body";
    return Errors.validation(
      error.message.startsWith(where) ? error.message : `${where} ${error.message}`,
    );
  }
  // PostgreSQL "data exception" (class 22): a value the store cannot take is bad input.
  if (typeof error.code === "string" && /^22[0-9A-Z]{3}$/.test(error.code)) {
    return Errors.validation("The request holds a value that cannot be stored.");
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = error.message || "The request is not valid.";
    if (status === 403) return Errors.accessDenied(message);
    if (status === 404) return Errors.notFound(message);
    if (status === 429) return Errors.throttling(message);
    return Object.assign(Errors.validation(message), { statusCode: status });
  }
  return null;
}

/** The headers a client error may keep from where it was raised (a plugin's Retry-After). */
const KEPT_HEADERS = ["retry-after", "allow", "www-authenticate", "content-range"];

function keepRaisedHeaders(error: Error, reply: FastifyReply): void {
  const raised = (error as { headers?: unknown }).headers;
  if (!raised || typeof raised !== "object") return;
  for (const [name, value] of Object.entries(raised)) {
    if (KEPT_HEADERS.includes(name.toLowerCase()) && typeof value === "string")
      reply.header(name, value);
  }
}

/** The one error handler: a ServiceError or Fastify client error as is, anything else a 500. */
export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const known = isServiceError(error) ? error : toServiceError(error as FastifyError);
  if (known) {
    keepRaisedHeaders(error, reply);
    request.log.info({ req: request, err: error, type: known.type }, "request rejected");
    return sendError(reply, known);
  }
  request.log.error({ req: request, err: error }, "request failed");
  return sendError(reply, Errors.internal());
}

/**
 * Every error answers in the AWS REST-JSON shape: `x-amzn-ErrorType` and
 * `{"__type","message"}`; every response carries `x-amzn-RequestId`. Plugins inherit the
 * handler; one that sets its own must use `handleError`.
 */
export function installErrorHandling(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request (every request passes here).
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  app.setErrorHandler(handleError);

  app.setNotFoundHandler((request, reply) => {
    return reply
      .code(404)
      .header(ERROR_TYPE_HEADER, "UnknownOperationException")
      .send({
        __type: "UnknownOperationException",
        message: `No route for ${request.method} ${request.url.split("?")[0]}`,
      });
  });
}
