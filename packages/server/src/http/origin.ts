/**
 * Who may use the widget service and gateway: pages on the allowed origins (ALLOWED_ORIGINS).
 * Browsers name the page's origin in `Origin` (always on cross-origin requests and on
 * same-origin POSTs); a same-origin GET carries none, so `Sec-Fetch-Site`, `Referer` and a
 * loopback peer (local tools) are accepted in its place.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

export function isLoopbackAddress(ip: string | undefined): boolean {
  if (!ip) return false;
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** The origin the request came to: a page this server served. */
export function isOwnOrigin(origin: string, request: FastifyRequest): boolean {
  return origin === `${request.protocol}://${request.host}`;
}

/**
 * Allowed: a configured origin; the server's own origin (the page came from this server);
 * or a loopback origin seen from a loopback peer (a developer's own machine).
 */
function isAllowed(origin: string, request: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  if (isOwnOrigin(origin, request)) return true;
  return isLoopbackOrigin(origin) && isLoopbackAddress(request.socket.remoteAddress);
}

export type OriginVerdict =
  { allowed: true; origin: string | null } | { allowed: false; reason: string };

export function checkOrigin(
  request: FastifyRequest,
  allowedOrigins: readonly string[],
): OriginVerdict {
  const allowed = new Set(allowedOrigins.map((o) => originOf(o) ?? o));
  const header = request.headers.origin;
  if (typeof header === "string" && header !== "") {
    const origin = originOf(header) ?? header;
    return isAllowed(origin, request, allowed)
      ? { allowed: true, origin }
      : { allowed: false, reason: `Origin ${header} is not allowed to use the chat widget.` };
  }
  const referer =
    typeof request.headers.referer === "string" ? originOf(request.headers.referer) : null;
  if (referer !== null) {
    return isAllowed(referer, request, allowed)
      ? { allowed: true, origin: null }
      : { allowed: false, reason: `Origin ${referer} is not allowed to use the chat widget.` };
  }
  if (request.headers["sec-fetch-site"] === "same-origin") return { allowed: true, origin: null };
  if (isLoopbackAddress(request.socket.remoteAddress)) return { allowed: true, origin: null };
  return { allowed: false, reason: "The request does not name an allowed origin." };
}

const ALLOW_HEADERS = "content-type, snippet-id, x-amz-bearer, x-amz-user-agent, authorization";
const EXPOSE_HEADERS = "x-amzn-RequestId, x-amzn-ErrorType, Date";

/** CORS headers for one allowed origin (`*` for the open telemetry endpoints). */
export function setCorsHeaders(reply: FastifyReply, origin: string, request: FastifyRequest): void {
  reply.header("access-control-allow-origin", origin);
  if (origin !== "*") reply.header("vary", "Origin");
  reply.header("access-control-allow-methods", "GET, POST, OPTIONS");
  const asked = request.headers["access-control-request-headers"];
  reply.header(
    "access-control-allow-headers",
    typeof asked === "string" && asked !== "" ? asked : ALLOW_HEADERS,
  );
  reply.header("access-control-expose-headers", EXPOSE_HEADERS);
  reply.header("access-control-max-age", "600");
}
