// @vitest-environment node
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { LOCALES, LOCALE_LOAD_FAILED, chooseLocale, loadTexts } from "./locale.js";
import { fakeLogger } from "./test-support/fakes.js";
import { en } from "./texts.js";

const dir = fileURLToPath(new URL("./locales/", import.meta.url));
const table = (code: string) =>
  JSON.parse(readFileSync(`${dir}${code}.json`, "utf8")) as Record<string, string>;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the visitor's language", () => {
  it("is data-locale, else the page's lang, else the browser's; the first we have, by its primary tag", () => {
    expect(chooseLocale(["de", "fr", "es"])).toBe("de");
    expect(chooseLocale([undefined, "", "fr-CA", "es"])).toBe("fr");
    expect(chooseLocale([undefined, "xx", "pt-BR"])).toBe("pt");
    expect(chooseLocale(["AR_eg"])).toBe("ar");
    expect(chooseLocale(["iw"])).toBe("he");
    expect(chooseLocale(["ko", "zz"])).toBe("en");
    expect(chooseLocale([])).toBe("en");
  });

  it("offers at least 12 locales, Arabic and Hebrew among them, each a table beside English", () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(12);
    expect(LOCALES).toContain("ar");
    expect(LOCALES).toContain("he");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.map((f) => f.replace(".json", "")).sort()).toEqual(
      LOCALES.filter((l) => l !== "en").sort(),
    );
  });

  it.each(LOCALES.filter((l) => l !== "en"))(
    "%s has every key of English and no other, each a non-empty text with the same placeholders",
    (code) => {
      const t = table(code);
      expect(Object.keys(t)).toEqual(Object.keys(en));
      for (const [key, english] of Object.entries(en)) {
        expect(typeof t[key], key).toBe("string");
        expect(t[key]!.trim(), key).not.toBe("");
        expect(placeholders(t[key]!), key).toEqual(placeholders(english));
      }
      expect(t.LANG).toBe(code);
      expect(t.DIR).toBe(code === "ar" || code === "he" ? "rtl" : "ltr");
    },
  );

  it("loads a table from locales/<code>.json beside the script; a key it lacks stays English", async () => {
    const fetchJson = vi.fn(async () => ({ LANG: "de", OPEN: "Chat öffnen", CLOSE: 42 }));
    const texts = await loadTexts(
      "de",
      "https://cc.example/widget/chat-widget.js",
      fetchJson,
      fakeLogger(),
    );
    expect(fetchJson).toHaveBeenCalledWith("https://cc.example/widget/locales/de.json");
    expect(texts).toMatchObject({
      LANG: "de",
      OPEN: "Chat öffnen",
      CLOSE: en.CLOSE,
      SEND: en.SEND,
    });
  });

  it("English loads nothing; a table that cannot be loaded leaves English and is logged", async () => {
    const fetchJson = vi.fn(async () => {
      throw new Error("404");
    });
    const logger = fakeLogger();
    expect(await loadTexts("en", "https://cc.example/w.js", fetchJson, logger)).toBeNull();
    expect(fetchJson).not.toHaveBeenCalled();
    expect(await loadTexts("fr", "https://cc.example/w.js", fetchJson, logger)).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(
      LOCALE_LOAD_FAILED,
      "https://cc.example/locales/fr.json",
      expect.any(Error),
    );
    const notAnObject = await loadTexts("fr", "https://cc.example/w.js", async () => "hi", logger);
    expect(notAnObject).toBeNull();
  });
});
