/** A websocket frame's text, whichever form `ws` hands it over in (a Buffer by default). */
import type { RawData } from "ws";

export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data).toString("utf8");
}
