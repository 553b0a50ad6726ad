import { createHash, createHmac, randomFillSync, timingSafeEqual } from "node:crypto";

const TOKEN_BYTES = 32;
/**
 * Random bytes drawn from the system's generator 128 tokens at a time, each byte handed out
 * once: one call into OpenSSL per token cost 20 times more (as Node's own randomUUID keeps a
 * buffer of them).
 */
const pool = Buffer.alloc(TOKEN_BYTES * 128);
let drawn = pool.length;

/** A random, unguessable token (256 bits, base64url). */
export function newToken(): string {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  const token = pool.toString("base64url", drawn, drawn + TOKEN_BYTES);
  drawn += TOKEN_BYTES;
  return token;
}

/** Tokens are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Hash of a request's identifying fields, for idempotency keys. */
export function hashRequest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

export function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

export function verifySignature(secret: string, payload: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
