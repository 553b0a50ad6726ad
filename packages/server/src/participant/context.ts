import type { Clock } from "../clock.js";
import type { ServerDeps } from "../deps.js";
import type { CallerCache } from "./caller-cache.js";
import type { RateLimiter } from "./rate-limit.js";

/** What the participant service's routes share. */
export interface ParticipantContext {
  deps: ServerDeps;
  clock: Clock;
  limiter: RateLimiter;
  /** Who recently used connection tokens belong to (authentication without the store). */
  callers: CallerCache;
}

/** The origin handed out in websocket and attachment URLs (PUBLIC_URL, or the listening address). */
export function publicBase(ctx: ParticipantContext): string {
  return ctx.deps.config.publicUrl;
}

/** `http(s)://…` → `ws(s)://…`. */
export function websocketBase(ctx: ParticipantContext): string {
  return publicBase(ctx).replace(/^http/, "ws");
}
