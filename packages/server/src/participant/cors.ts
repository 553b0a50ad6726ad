import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Headers chatjs and the AWS SDK send (docs/protocol.md §1.13), allowed when a preflight names none. */
export const ALLOWED_HEADERS = [
  "content-type",
  "x-amz-bearer",
  "x-amz-date",
  "x-amz-user-agent",
  "x-amz-content-sha256",
  "x-amz-security-token",
  "authorization",
  "amz-sdk-invocation-id",
  "amz-sdk-request",
].join(", ");
export const EXPOSED_HEADERS =
  "x-amzn-RequestId, x-amzn-ErrorType, x-amzn-requestid, x-amzn-errortype, Date, Retry-After";
export const ALLOWED_METHODS = "GET, POST, PUT, OPTIONS";

function setCommon(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  reply.header("Access-Control-Allow-Origin", origin ?? "*");
  if (origin) reply.header("Vary", "Origin");
  reply.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
}

/**
 * CORS for the participant service and its attachment URLs: any origin (no cookies are
 * used; tokens are in headers or signed URLs), the SDK's signing headers allowed,
 * the error headers exposed.
 */
export function registerParticipantCors(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request (every request passes here).
  app.addHook("onRequest", (request, reply, done) => {
    setCommon(request, reply);
    done();
  });

  app.options("/participant/*", async (request, reply) => {
    const requested = request.headers["access-control-request-headers"];
    reply
      .header("Access-Control-Allow-Methods", ALLOWED_METHODS)
      .header("Access-Control-Allow-Headers", requested ?? ALLOWED_HEADERS)
      .header("Access-Control-Max-Age", "600");
    if (request.headers["access-control-request-private-network"] === "true") {
      reply.header("Access-Control-Allow-Private-Network", "true");
    }
    return reply.code(204).send();
  });
}
