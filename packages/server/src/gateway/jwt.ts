/**
 * The visitor jwt (spec docs/decisions.md #3): its payload's `attributes` claim is the attributes
 * map, `orderNumber` one of its keys. Decoded always; its HS256 signature is verified when
 * the server has a key (WIDGET_JWT_SECRET). The same helpers sign the telemetry tokens.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export class JwtError extends Error {
  override name = "JwtError";
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString("base64url");

function decodePart(part: string | undefined, what: string): Record<string, unknown> {
  if (part === undefined || !/^[A-Za-z0-9_-]*={0,2}$/.test(part) || part.length === 0) {
    throw new JwtError(`The jwt's ${what} is not valid base64`);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw new JwtError(`The jwt's ${what} is not valid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new JwtError(`The jwt's ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The payload of a `header.payload.signature` token, without checking the signature. */
export function decodeJwt(token: string): Record<string, unknown> {
  const parts = token.split(".");
  if (parts.length !== 3) throw new JwtError("The jwt must have three dot-separated parts");
  decodePart(parts[0], "header");
  return decodePart(parts[1], "payload");
}

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = base64url(JSON.stringify(payload));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

/**
 * The payload of an HS256 token signed with `secret`; throws a JwtError when the header
 * is not HS256, the signature does not match, or `exp`/`nbf` (seconds) rule it out at `nowMs`.
 */
export function verifyJwt(token: string, secret: string, nowMs: number): Record<string, unknown> {
  const payload = decodeJwt(token);
  const [head, body, sig = ""] = token.split(".");
  const header = decodePart(head, "header");
  if (header.alg !== "HS256") throw new JwtError("The jwt must be signed with HS256");
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError("The jwt's signature is not valid");
  }
  const now = nowMs / 1000;
  if (typeof payload.exp === "number" && now >= payload.exp)
    throw new JwtError("The jwt has expired");
  if (typeof payload.nbf === "number" && now < payload.nbf)
    throw new JwtError("The jwt is not valid yet");
  return payload;
}

/** The `attributes` claim with every value turned into a string (as the widget reports it). */
export function jwtAttributes(payload: Record<string, unknown>): Record<string, string> {
  const claim = payload.attributes;
  if (typeof claim !== "object" || claim === null || Array.isArray(claim)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(claim)) {
    out[k] = typeof v === "string" ? v : v === undefined ? "undefined" : JSON.stringify(v);
  }
  return out;
}
