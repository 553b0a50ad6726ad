import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.js";

describe("advisor passwords are hashed", () => {
  it("stores a salted scrypt hash, never the password", async () => {
    const a = await hashPassword("demo");
    const b = await hashPassword("demo");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toContain("demo");
    expect(a).not.toBe(b);
  });

  it("verifies the right password and refuses a wrong one or a malformed hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct hors", stored)).toBe(false);
    expect(await verifyPassword("x", "plain")).toBe(false);
    expect(await verifyPassword("x", "scrypt$0$8$1$aa$bb")).toBe(false);
  });
});
