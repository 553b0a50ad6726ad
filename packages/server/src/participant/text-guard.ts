import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { Errors } from "../errors.js";

/** NUL and unpaired surrogates: not storable in PostgreSQL text or jsonb. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string in `value` that the store cannot hold, or null. */
export function findUnstorableText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : null;
  // Binary bodies (attachment uploads) are bytes, not text: never walk them byte by byte.
  if (typeof value !== "object" || value === null || depth > 20 || ArrayBuffer.isView(value)) {
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const found = UNSTORABLE.test(key)
      ? `${path}.${key}`
      : findUnstorableText(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Rejects NUL characters and broken UTF-16 anywhere in the body, path or query with 400. A
 * callback hook, not an async one: no promise per request.
 */
export function rejectUnstorableText(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const found =
    findUnstorableText(request.body, "body") ??
    findUnstorableText(request.params, "params") ??
    findUnstorableText(request.query, "query");
  done(
    found ? Errors.validation(`${found} contains a NUL character or invalid UTF-16.`) : undefined,
  );
}
