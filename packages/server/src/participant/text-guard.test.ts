import { describe, expect, it } from "vitest";
import { findUnstorableText } from "./text-guard.js";

describe("findUnstorableText", () => {
  it("finds a NUL character or a lone surrogate in nested strings and keys, by path", () => {
    expect(findUnstorableText({ a: [{ b: "ok\u0000" }] }, "body")).toBe("body.a.0.b");
    expect(findUnstorableText({ ["k\ud800"]: "v" }, "body")).toBe("body.k\ud800");
    expect(findUnstorableText({ a: "fine 😀", b: [1, null] }, "body")).toBeNull();
  });

  it("never walks a binary body (an attachment upload is bytes, not text)", () => {
    const bytes = Object.assign(Buffer.from([0, 0xd8, 0]), { note: "\u0000" });
    expect(findUnstorableText(bytes, "body")).toBeNull();
    expect(findUnstorableText(new Uint8Array(20 * 1024 * 1024), "body")).toBeNull();
  });
});
