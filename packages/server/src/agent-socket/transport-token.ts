/**
 * The advisor websocket's URL token: the advisor id and an expiry, signed with the server's
 * token secret, so any process of the contact centre can check it without a lookup.
 */
import { sign, verifySignature } from "../contact-centre/tokens.js";

/** How long a handed-out URL opens a websocket (AWS: 100 s, docs/protocol.md §3.1). */
export const ADVISOR_SOCKET_URL_TTL_MS = 100_000;

export interface TransportClaims {
  advisorId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export function issueTransportToken(secret: string, claims: TransportClaims): string {
  const payload = Buffer.from(JSON.stringify([claims.advisorId, claims.expiresAt])).toString(
    "base64url",
  );
  return `${payload}.${sign(secret, payload)}`;
}

/** The claims of a valid, unexpired token; null otherwise. */
export function verifyTransportToken(
  secret: string,
  token: string | undefined,
  now: number,
): TransportClaims | null {
  if (typeof token !== "string") return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  if (!verifySignature(secret, payload, signature)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) return null;
  const [advisorId, expiresAt] = decoded as unknown[];
  if (typeof advisorId !== "string" || typeof expiresAt !== "number") return null;
  if (now >= expiresAt) return null;
  return { advisorId, expiresAt };
}
