import { Errors } from "../errors.js";

/** Item sequence numbers are PostgreSQL `integer`s. */
const MAX_SEQ = 2_147_483_647;

export type ScanDirection = "FORWARD" | "BACKWARD";

export interface PagePosition {
  contactId: string;
  /** The last item returned; the next page continues after it. */
  seq: number;
  direction: ScanDirection;
}

/** GetTranscript's opaque NextToken. It only moves within the caller's own contact. */
export function encodeNextToken(p: PagePosition): string {
  return Buffer.from(JSON.stringify({ c: p.contactId, s: p.seq, d: p.direction })).toString(
    "base64url",
  );
}

export function decodeNextToken(token: string, contactId: string): PagePosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    value = null;
  }
  const v = value as { c?: unknown; s?: unknown; d?: unknown } | null;
  if (
    !v ||
    v.c !== contactId ||
    typeof v.s !== "number" ||
    !Number.isInteger(v.s) ||
    v.s < 0 ||
    v.s > MAX_SEQ ||
    (v.d !== "FORWARD" && v.d !== "BACKWARD")
  ) {
    throw Errors.validation("NextToken is not valid for this transcript.");
  }
  return { contactId, seq: v.s, direction: v.d };
}
