/**
 * Text the store cannot hold (a NUL character) is bad input: refused with a 400 before
 * any work, instead of failing in the database.
 */
import type { FastifyInstance } from "fastify";
import { Errors } from "../errors.js";

export function findNul(value: unknown, path = "body", depth = 0): string | null {
  if (depth > 32) return null;
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const hit = k.includes("\u0000") ? `${path} key` : findNul(v, `${path}.${k}`, depth + 1);
      if (hit) return hit;
    }
  }
  return null;
}

/** Refuse NUL characters in the body, path parameters, query and headers of every route in scope. */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook("preHandler", async (request) => {
    const hit =
      findNul(request.params, "params") ??
      findNul(request.query, "querystring") ??
      findNul(request.body, "body");
    if (hit) throw Errors.validation(`${hit} contains a NUL character, which is not allowed.`);
  });
}
