/** The `Authorization: Bearer <token>` credential, and checking one against a configured secret. */
import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { hashToken } from "../contact-centre/tokens.js";

/** The token of the request's `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
}

/**
 * Whether a presented token is `secret`: compared as SHA-256 digests in constant time, so
 * neither its length nor its content leaks.
 */
export function secretMatcher(secret: string): (token: string | undefined) => boolean {
  const expected = Buffer.from(hashToken(secret), "hex");
  return (token) =>
    token !== undefined && timingSafeEqual(Buffer.from(hashToken(token), "hex"), expected);
}
