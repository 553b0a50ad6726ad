import { describe, expect, it } from "vitest";
import { hashToken, newToken } from "./tokens.js";

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
