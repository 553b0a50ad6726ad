import { describe, expect, it } from "vitest";
import {
  ADVISOR_SOCKET_URL_TTL_MS,
  issueTransportToken,
  verifyTransportToken,
} from "./transport-token.js";

const SECRET = "s3cret";
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

describe("advisor websocket URL token", () => {
  const token = issueTransportToken(SECRET, {
    advisorId: "demo-advisor",
    expiresAt: T0 + ADVISOR_SOCKET_URL_TTL_MS,
  });

  it("opens the websocket until 100 s after it was handed out, to the millisecond", () => {
    expect(ADVISOR_SOCKET_URL_TTL_MS).toBe(100_000);
    expect(verifyTransportToken(SECRET, token, T0 + 99_999)).toEqual({
      advisorId: "demo-advisor",
      expiresAt: T0 + 100_000,
    });
    expect(verifyTransportToken(SECRET, token, T0 + 100_000)).toBeNull();
  });

  it("is refused when signed with another secret or altered", () => {
    expect(verifyTransportToken("other", token, T0)).toBeNull();
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify(["someone-else", T0 + 100_000])).toString(
      "base64url",
    );
    expect(verifyTransportToken(SECRET, `${forged}.${signature}`, T0)).toBeNull();
    expect(verifyTransportToken(SECRET, `${payload}`, T0)).toBeNull();
    expect(verifyTransportToken(SECRET, `${token}.x`, T0)).toBeNull();
  });
});
