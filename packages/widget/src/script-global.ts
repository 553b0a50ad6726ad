/**
 * Load one of the widget's later scripts (beside `chat-widget.js`) with a `<script async>` and
 * hand back what it registers on a global; a failure only logs and gives null. It carries the
 * widget script's CSP nonce, if any.
 */
import type { Logger } from "./logger.js";

export function loadScriptGlobal<T>(
  url: string,
  doc: Document,
  host: Record<string, unknown>,
  name: string,
  logger: Logger,
  failed: string,
  nonce?: string,
): Promise<T | null> {
  const loaded = host[name] as T | undefined;
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve) => {
    const script = doc.createElement("script");
    script.src = url;
    script.async = true;
    // The widget script's nonce: a page whose CSP allows scripts by nonce allows this one too.
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const module = (host[name] as T | undefined) ?? null;
      if (!module) logger.warn(failed, url);
      resolve(module);
    };
    script.onerror = () => {
      logger.warn(failed, url);
      resolve(null);
    };
    (doc.head ?? doc.documentElement).appendChild(script);
  });
}
