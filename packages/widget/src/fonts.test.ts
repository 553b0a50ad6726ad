import { afterEach, describe, expect, it } from "vitest";
import { FONT_STYLE_ID, registerFonts } from "./fonts.js";

afterEach(() => document.getElementById(FONT_STYLE_ID)?.remove());

describe("Poppins 500 normal and italic ship with the widget", () => {
  it("is registered on the document once, with URLs relative to the script's own URL", () => {
    registerFonts(document, "https://cdn.example/widget/chat-widget.js");
    registerFonts(document, "https://cdn.example/widget/chat-widget.js");
    const styles = document.querySelectorAll(`#${FONT_STYLE_ID}`);
    expect(styles).toHaveLength(1);
    const css = styles[0]!.textContent ?? "";
    expect(css).toContain('font-family:"Poppins";font-style:normal;font-weight:500');
    expect(css).toContain('font-family:"Poppins";font-style:italic;font-weight:500');
    expect(css).toContain('url("https://cdn.example/widget/fonts/poppins-latin-500-normal.woff2")');
    expect(css).toContain('url("https://cdn.example/widget/fonts/poppins-latin-500-italic.woff2")');
    expect(styles[0]!.parentElement).toBe(document.head);
  });

  it("carries the script tag's CSP nonce", () => {
    registerFonts(document, "https://cdn.example/widget/chat-widget.js", "n0nce");
    expect(document.getElementById(FONT_STYLE_ID)?.nonce).toBe("n0nce");
  });
});
