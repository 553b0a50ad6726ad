/**
 * What the request log may hold: URLs with their credentials redacted (websocket URLs carry a
 * token, the advisor's event stream an access_token, attachment links a signature), and no
 * credential header even if a serializer is later made to log headers.
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

export const REDACTED = "[redacted]";

/** Query parameters that are credentials. */
const SECRET_PARAM = /^(access_token|token|signature|password|x-amz-security-token)$/i;

/** The URL with each credential's value replaced (the path and other parameters kept). */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        /* malformed escape: judge the raw name */
      }
      return eq !== -1 && SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
  return `${url.slice(0, at)}?${query}`;
}

/** Fastify logger options: the level, the redacting request serializer, redacted headers. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        "req.headers.authorization",
        'req.headers["x-amz-bearer"]',
        "req.headers.cookie",
        "*.password",
        "*.Password",
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * Each request's own lines ("incoming request", "request completed") at debug, not info: at the
 * default level they were two log lines a chat message, and writing them took a sixth of the
 * server's core at saturation (issue 27: PostgreSQL closed loop, 0.178–0.200 against
 * 0.156–0.160 ms a message). At info the log keeps what happens to the service, every request
 * refused ("request rejected") or failed ("request failed") with its method and redacted URL
 * (http/errors.ts), and fastify's own "request errored" for a response that broke off.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply);
    if (this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
