/** Checks a fetched transport before it is used (docs/protocol.md §3.10, rule 1). */
import { MIN_TRANSPORT_LIFETIME_SECONDS } from "./constants.js";
import { WebSocketManagerError } from "./errors.js";
import type { WebSocketTransport } from "./types.js";
import { isAllowedWebSocketUrl } from "./url.js";

export interface ValidTransport {
  url: string;
  lifetimeMs: number;
}

export function validateTransport(
  transport: WebSocketTransport | undefined,
): ValidTransport | WebSocketManagerError {
  const url: unknown = transport?.url;
  if (typeof url !== "string" || url.length === 0) {
    return new WebSocketManagerError("MISSING_URL", "Invalid WebSocket config: missing url");
  }
  if (!isAllowedWebSocketUrl(url)) {
    return new WebSocketManagerError(
      "INVALID_URL",
      "Invalid WebSocket config: url must start with wss:// (ws:// only to a loopback host)",
    );
  }
  const lifetime: unknown = transport?.transportLifeTimeInSeconds;
  if (typeof lifetime !== "number" || !(lifetime >= MIN_TRANSPORT_LIFETIME_SECONDS)) {
    return new WebSocketManagerError(
      "INVALID_LIFETIME",
      `Invalid WebSocket config: transportLifeTimeInSeconds must be at least ${MIN_TRANSPORT_LIFETIME_SECONDS}`,
    );
  }
  return { url, lifetimeMs: lifetime * 1000 };
}
