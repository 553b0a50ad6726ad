/** A JSON body parser for feature routes that reads an empty body as `{}` (POSTs without input). */
import type { FastifyInstance } from "fastify";
import { Errors } from "../errors.js";

export function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(Errors.validation("Body is not valid JSON."), undefined);
    }
  });
}
