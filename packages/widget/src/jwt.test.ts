import { describe, expect, it } from "vitest";
import { decodeJwtAttributes, decodeJwtSubject } from "./jwt.js";
import { fakeLogger, jwtWith } from "./test-support/fakes.js";

describe("the jwt", () => {
  it("attributes = the payload's attributes object with every value turned into a string", () => {
    const logger = fakeLogger();
    const jwt = jwtWith({
      sub: "v1",
      attributes: { orderNumber: 123456, vip: true, note: "é ✓", nested: { a: 1 }, none: null },
    });
    expect(decodeJwtAttributes(jwt, logger)).toEqual({
      orderNumber: "123456",
      vip: "true",
      note: "é ✓",
      nested: '{"a":1}',
      none: "null",
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("a payload without attributes gives an empty map", () => {
    expect(decodeJwtAttributes(jwtWith({ sub: "v1" }), fakeLogger())).toEqual({});
  });

  const invalid: [string, unknown][] = [
    ["not a string", 42],
    ["undefined", undefined],
    ["no payload part", "onlyheader"],
    ["payload not base64", "a.***.c"],
    ["payload not JSON", `a.${btoa("not json")}.c`],
  ];
  for (const [name, jwt] of invalid) {
    it(`the jwt must be a string whose payload part is valid base64 and JSON; otherwise the problem is logged (${name})`, () => {
      const logger = fakeLogger();
      expect(decodeJwtAttributes(jwt, logger)).toBeNull();
      expect(logger.error).toHaveBeenCalledTimes(1);
    });
  }

  it("the subject is the payload's sub as text, trimmed; none without a jwt, a non-empty sub or a payload that decodes", () => {
    expect(decodeJwtSubject(jwtWith({ sub: "alice", attributes: {} }))).toBe("alice");
    expect(decodeJwtSubject(jwtWith({ sub: 7 }))).toBe("7");
    expect(decodeJwtSubject(jwtWith({ sub: " bob " }))).toBe("bob");
    expect(decodeJwtSubject(jwtWith({ sub: "  " }))).toBeNull();
    expect(decodeJwtSubject(jwtWith({ sub: { id: 1 } }))).toBeNull();
    expect(decodeJwtSubject(jwtWith({ attributes: {} }))).toBeNull();
    expect(decodeJwtSubject(undefined)).toBeNull();
    expect(decodeJwtSubject("")).toBeNull();
    expect(decodeJwtSubject("a.***.c")).toBeNull();
  });
});
