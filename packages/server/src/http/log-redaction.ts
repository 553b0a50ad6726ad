/**
 * What the request log may hold: URLs with their credentials redacted (websocket URLs carry a
 * token, the advisor's event stream an access_token, attachment links a signature), and no
 * credential header even if a serializer is later made to log headers.
 */
import type { FastifyRequest } from "fastify";

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
