/**
 * Security headers (issue 10). Every response: `nosniff` and a same-origin referrer policy.
 * HTML pages get a Content-Security-Policy: scripts, styles, fonts and connections from this
 * server only (plus its websocket origin), no plugins, no <base>; the agent console may not
 * be framed at all, the demo page only by itself. Inline styles are allowed on the demo page
 * (its own <style> and the widget's shadow-root styles), never on the console.
 * The widget script itself stays loadable from any site (no Cross-Origin-Resource-Policy).
 */
import type { FastifyInstance } from "fastify";
import type { ServerConfig } from "../config.js";

const CONSOLE_PREFIX = "/agent";

/** ws(s)://host of the public URL, so pages may open the server's websockets. */
const websocketOrigin = (publicUrl: string): string =>
  publicUrl ? new URL(publicUrl).origin.replace(/^http/, "ws") : "";

/** The agent console's pages: `/agent` and below (not `/agentx`). */
const isConsolePath = (path: string): boolean =>
  path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);

export function contentSecurityPolicy(path: string, publicUrl: string): string {
  const console = isConsolePath(path);
  const connect = ["'self'", websocketOrigin(publicUrl)].filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    "script-src 'self'",
    console ? "style-src 'self'" : "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    console ? "frame-ancestors 'none'" : "frame-ancestors 'self'",
  ].join("; ");
}

export function securityHeaders(app: FastifyInstance, config: ServerConfig): void {
  // A callback hook, not an async one: no promise per request (every request passes here).
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("text/html")) {
      const path = request.url.split("?")[0] ?? "/";
      reply.header("content-security-policy", contentSecurityPolicy(path, config.publicUrl));
      if (isConsolePath(path)) reply.header("x-frame-options", "DENY");
    }
    done(null, payload);
  });
}
