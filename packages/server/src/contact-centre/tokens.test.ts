import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashRequest, hashToken, newToken } from "./tokens.js";

describe("newToken", () => {
  it("gives 256 random bits as base64url, never the same twice across many refills of its pool", () => {
    const tokens = Array.from({ length: 1_000 }, newToken);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
    }
    // No two tokens share a byte run: each byte of the pool is handed out once.
    const halves = tokens.flatMap((t) => [t.slice(0, 21), t.slice(22)]);
    expect(new Set(halves).size).toBe(halves.length);
    expect(hashToken(tokens[0]!)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("hashes", () => {
  // Stored token hashes and idempotency keys outlive a deploy: the digests must never change.
  it("are SHA-256 in hex, the same as every version before", () => {
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(hashRequest(["text/plain", "Hello"])).toBe(
      createHash("sha256").update('["text/plain","Hello"]').digest("hex"),
    );
  });
});
