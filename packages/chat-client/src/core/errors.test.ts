import { describe, expect, it } from "vitest";
import { ChatClientError, isFinalError, toRequestError } from "./errors.js";

describe("which failures are final (issue 9)", () => {
  it("a 4xx answer other than 408 and 429, and the client's own validation errors, are final", () => {
    expect(isFinalError(toRequestError("AccessDeniedException", "Forbidden", 403))).toBe(true);
    expect(isFinalError(toRequestError("ValidationException", "bad", 400))).toBe(true);
    expect(isFinalError(Object.assign(new Error("Forbidden"), { statusCode: 403 }))).toBe(true);
    expect(isFinalError(new ChatClientError("IllegalArgument", "bad"))).toBe(true);
  });

  it("no answer, a timeout, 429 and 5xx are transient: tried again", () => {
    expect(isFinalError(toRequestError("TypeError", "Failed to fetch"))).toBe(false);
    expect(isFinalError(new TypeError("Load failed"))).toBe(false);
    expect(isFinalError(toRequestError("RequestTimeout", "slow", 408))).toBe(false);
    expect(isFinalError(toRequestError("ThrottlingException", "slow down", 429))).toBe(false);
    expect(isFinalError(toRequestError("InternalServerException", "oops", 500))).toBe(false);
    expect(isFinalError(toRequestError("503", "unavailable", 503))).toBe(false);
    expect(isFinalError(null)).toBe(false);
    expect(isFinalError("unreachable")).toBe(false);
  });
});
