import { describe, expect, it } from "vitest";
import { pageUrl } from "./page-route.js";

describe("the page URL the visitor panel keeps", () => {
  const from = "https://shop.example";

  it("drops query, fragment and credentials unless the operator keeps the query", () => {
    const raw = "https://ann:pw@shop.example/cart?session=secret#pay";
    expect(pageUrl(raw, from, false)).toBe("https://shop.example/cart");
    expect(pageUrl(raw, from, true)).toBe("https://shop.example/cart?session=secret#pay");
  });

  it("refuses a URL that is not http(s) or not on the page's own origin", () => {
    for (const raw of [
      "javascript:alert(1)",
      "data:text/html,hi",
      "/cart",
      "https://evil.example/cart",
      "http://shop.example/cart",
      "https://shop.example:8443/cart",
    ])
      expect(() => pageUrl(raw, from, false), raw).toThrow(/Url must be/);
    expect(() => pageUrl("https://shop.example/", undefined, false)).toThrow(/Origin header/);
  });
});
