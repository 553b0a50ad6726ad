/**
 * Load one of the widget's later scripts (beside `chat-widget.js`) with a `<script async>` and
 * hand back what it registers on a global; a failure only logs and gives null. It carries the
 * widget script's CSP nonce, if any.
 */
import type { Logger } from "./logger.js";

/**
 * Whether `value` is what one of our scripts registers: an object whose `keys` are functions.
 * A page element whose id is the global's name (DOM clobbering) is not, nor a form whose fields
 * are named like the keys.
 */
export function hasFunctions(value: unknown, keys: readonly string[]): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === "function");
}

/** A global one of the widget's later scripts registers, and the functions it must have. */
export interface ScriptGlobal {
  name: string;
  functions: readonly string[];
}

export function loadScriptGlobal<T>(
  url: string,
  doc: Document,
  host: Record<string, unknown>,
  global: ScriptGlobal,
  logger: Logger,
  failed: string,
  nonce?: string,
): Promise<T | null> {
  const registered = () =>
    hasFunctions(host[global.name], global.functions) ? (host[global.name] as T) : null;
  const loaded = registered();
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve) => {
    const script = doc.createElement("script");
    script.src = url;
    script.async = true;
    // The widget script's nonce: a page whose CSP allows scripts by nonce allows this one too.
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const module = registered();
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
