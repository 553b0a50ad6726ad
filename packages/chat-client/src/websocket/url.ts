/**
 * Websocket URL validation (docs/product.md §5 and docs/decisions.md #11): `wss://` always; `ws://` only to a
 * loopback host (127.0.0.1, localhost, [::1]) so the local contact centre needs no certificate.
 */

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isAllowedWebSocketUrl(url: unknown): url is string {
  if (typeof url !== "string") return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "wss:") return /^wss:\/\//i.test(url);
  if (parsed.protocol === "ws:")
    return /^ws:\/\//i.test(url) && LOOPBACK_HOSTS.has(parsed.hostname);
  return false;
}
