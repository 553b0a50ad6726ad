import { describe, expect, it } from "vitest";
import { describeBrowser, firstLanguage } from "./browser.js";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

describe("the visitor's browser and operating system", () => {
  it("are named with the browser's major version and the system's version", () => {
    expect(describeBrowser(CHROME_WINDOWS)).toEqual({
      browser: "Chrome 131",
      operatingSystem: "Windows 10",
    });
    expect(describeBrowser(SAFARI_IPHONE)).toEqual({
      browser: "Mobile Safari 18",
      operatingSystem: "iOS 18.1",
    });
    expect(describeBrowser(FIREFOX_LINUX)).toEqual({
      browser: "Firefox 133",
      operatingSystem: "Linux",
    });
  });

  it("are left out when the User-Agent names neither", () => {
    expect(describeBrowser("")).toEqual({});
    expect(describeBrowser("curl/8.5.0")).toEqual({});
    expect(describeBrowser("<script>alert(1)</script>")).toEqual({});
  });
});

describe("the visitor's language", () => {
  it("is the tag of the highest weight, canonical", () => {
    expect(firstLanguage("fr-fr,fr;q=0.9,en;q=0.8")).toBe("fr-FR");
    expect(firstLanguage("en;q=0.5, de-CH;q=0.9, de;q=0.9")).toBe("de-CH");
    expect(firstLanguage("nl")).toBe("nl");
  });

  it("is unknown for none, a wildcard, a weight of 0 or a tag that is not a language", () => {
    expect(firstLanguage("")).toBeUndefined();
    expect(firstLanguage("*")).toBeUndefined();
    expect(firstLanguage("fr;q=0")).toBeUndefined();
    expect(firstLanguage("not a tag!, <b>")).toBeUndefined();
    expect(firstLanguage("en;q=abc, es;q=0.2")).toBe("es");
  });
});
