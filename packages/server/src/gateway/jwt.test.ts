import { describe, expect, it } from "vitest";
import { JwtError, decodeJwt, jwtAttributes, signJwt, verifyJwt } from "./jwt.js";

const NOW = Date.UTC(2026, 0, 1);

describe("visitor jwt", () => {
  it("the payload's attributes claim is the attributes map, orderNumber one key", () => {
    const token = signJwt({ attributes: { orderNumber: "A-10042", items: 3, vip: true } }, "s");
    expect(jwtAttributes(decodeJwt(token))).toEqual({
      orderNumber: "A-10042",
      items: "3",
      vip: "true",
    });
    expect(jwtAttributes({ attributes: [1] })).toEqual({});
  });

  it("must be a string whose payload part is valid base64 and JSON", () => {
    expect(() => decodeJwt("abc")).toThrow("three dot-separated parts");
    expect(() => decodeJwt("eyJhbGciOiJIUzI1NiJ9.%%%.x")).toThrow("not valid base64");
    const notJson = Buffer.from("{nope").toString("base64url");
    expect(() => decodeJwt(`eyJhbGciOiJIUzI1NiJ9.${notJson}.x`)).toThrow("not valid JSON");
  });

  it("verifies the HS256 signature with the configured key", () => {
    const token = signJwt({ attributes: { orderNumber: "A-1" } }, "secret");
    expect(verifyJwt(token, "secret", NOW).attributes).toEqual({ orderNumber: "A-1" });
    expect(() => verifyJwt(token, "other", NOW)).toThrow(JwtError);
    const [h, , s] = token.split(".");
    const forged = `${h}.${Buffer.from('{"attributes":{"orderNumber":"B"}}').toString("base64url")}.${s}`;
    expect(() => verifyJwt(forged, "secret", NOW)).toThrow("signature is not valid");
  });

  it("rejects tokens that are not HS256, expired or not yet valid", () => {
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from("{}").toString("base64url")}.`;
    expect(() => verifyJwt(none, "s", NOW)).toThrow("HS256");
    expect(() => verifyJwt(signJwt({ exp: NOW / 1000 }, "s"), "s", NOW)).toThrow("expired");
    expect(verifyJwt(signJwt({ exp: NOW / 1000 + 1 }, "s"), "s", NOW).exp).toBe(NOW / 1000 + 1);
    expect(() => verifyJwt(signJwt({ nbf: NOW / 1000 + 1 }, "s"), "s", NOW)).toThrow(
      "not valid yet",
    );
  });
});
