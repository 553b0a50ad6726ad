import { createHmac, hash, randomFillSync, timingSafeEqual } from "node:crypto";

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

// Both hashes run on every request: `hash` (one call) costs about half of `createHash`'s
// object and its three calls (0.7–0.9 against 1.4–2.0 µs, Node 20 and 24).

/** Tokens are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** Hash of a request's identifying fields, for idempotency keys. */
export function hashRequest(value: unknown): string {
  return hash("sha256", JSON.stringify(value), "hex");
}

export function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

export function verifySignature(secret: string, payload: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
