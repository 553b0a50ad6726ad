/** The visitor jwt: only decoded, never verified here (docs/product.md §5, docs/decisions.md #3). */
import type { Logger } from "./logger.js";

function decodeBase64Url(part: string): string {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(part)) throw new Error("payload is not base64url");
  const base64 = part.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

function asString(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** The jwt's payload, or the problem that it has none (with what to log beside it). */
function decodePayload(
  jwt: unknown,
): { payload: unknown } | { problem: string; detail: unknown[] } {
  if (typeof jwt !== "string") return { problem: "The jwt must be a string", detail: [jwt] };
  const payloadPart = jwt.split(".")[1];
  if (payloadPart === undefined || payloadPart === "")
    return { problem: "The jwt has no payload part", detail: [] };
  try {
    return { payload: JSON.parse(decodeBase64Url(payloadPart)) };
  } catch (error) {
    return { problem: "The jwt payload is not valid base64 and JSON", detail: [error] };
  }
}

/**
 * The jwt's `attributes` claim with every value turned into a string, or null (problem logged)
 * when the jwt is not a string whose payload part is valid base64 and JSON.
 */
export function decodeJwtAttributes(jwt: unknown, logger: Logger): Record<string, string> | null {
  const decoded = decodePayload(jwt);
  if ("problem" in decoded) {
    logger.error(decoded.problem, ...decoded.detail);
    return null;
  }
  const { payload } = decoded;
  const raw =
    typeof payload === "object" && payload !== null
      ? (payload as { attributes?: unknown }).attributes
      : undefined;
  const attributes: Record<string, string> = {};
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) attributes[key] = asString(value);
  }
  return attributes;
}

/**
 * The jwt's subject (`sub`) as the server reads it: as text (a number too), trimmed; null
 * without a jwt, one that does not decode, or a `sub` that is missing or empty. It tells one
 * visitor from another (persistent-chat.ts); the server verifies it.
 */
export function decodeJwtSubject(jwt: string | undefined): string | null {
  if (jwt === undefined || jwt === "") return null;
  const decoded = decodePayload(jwt);
  if ("problem" in decoded) return null;
  const sub = (decoded.payload as { sub?: unknown } | null)?.sub;
  const text = typeof sub === "string" ? sub : typeof sub === "number" ? String(sub) : "";
  return text.trim() === "" ? null : text.trim();
}
