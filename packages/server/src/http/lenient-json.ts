/** JSON body parsers for feature routes: an empty body reads as `{}` (POSTs without input). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Errors } from "../errors.js";

/** The largest body the gateway reads whatever its content type (a start-chat is < 10 KB). */
export const ANY_TYPE_BODY_LIMIT = 64 * 1024;

function parseJson(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const text = typeof body === "string" ? body : body.toString("utf8");
  if (text.trim() === "") return done(null, {});
  try {
    done(null, JSON.parse(text) as unknown);
  } catch {
    done(Errors.validation("Body is not valid JSON."), undefined);
  }
}

export function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, parseJson);
}

/**
 * Read a body of any other content type as JSON too (at most ANY_TYPE_BODY_LIMIT bytes):
 * Amazon's chat interface posts its start-chat JSON as a plain string, which browsers label
 * `text/plain;charset=UTF-8`.
 */
export function acceptJsonOfAnyType(app: FastifyInstance): void {
  app.removeContentTypeParser("text/plain"); // Fastify's own would hand the schema a string
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: ANY_TYPE_BODY_LIMIT }, parseJson);
}
