import { describe, expect, it } from "vitest";
import { styles } from "./styles.js";

const rule = (selector: string) => {
  const start = styles.indexOf(`\n${selector}{`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  return styles.slice(start, styles.indexOf("}", start));
};

describe("sizes, positions, z-index and animations as spec §2 and §9", () => {
  it("floating button: bottom-right 25 px, 75 × 75, top corners 10 px, z-index 999", () => {
    const r = rule(".launcher");
    for (const part of [
      "position:fixed",
      // 25 px from the corner the visitor sees (the insets are 0 unless the page is wider or zoomed)
      "right:calc(25px + var(--cw-inset-right,0px))",
      "bottom:calc(25px + var(--cw-inset-bottom,0px))",
      "width:75px",
      "height:75px",
      "border-radius:10px 10px 0 0",
      "z-index:999",
    ])
      expect(r).toContain(part);
  });
  it("appear 0.2 s; rotation 2 s linear infinite; typing dots 2.5 s", () => {
    expect(rule(".appear")).toContain("animation:cw-appear .2s");
    expect(rule(".rotate")).toContain("animation:cw-rotate 2s linear infinite");
    expect(rule(".typing .dot")).toContain("2.5s infinite");
  });
  it("chat window 350 × 540; header logo 56 px; transcript at most 540 px; composer at most 60 px", () => {
    expect(rule(".window")).toContain("width:350px;height:540px");
    expect(rule(".logo")).toContain("height:56px");
    expect(rule(".transcript")).toContain("max-height:540px");
    expect(rule(".composer")).toContain("max-height:60px");
  });
  it("styling variables: primary colour (default #e56606), font (Poppins) and logo", () => {
    expect(styles).toContain("var(--chat-widget-primary-color,#e56606)");
    expect(styles).toContain('var(--chat-widget-font-family,"Poppins",sans-serif)');
    expect(styles).toContain("var(--chat-widget-logo,");
    expect(rule(".cw")).toContain("font-weight:500");
  });
});
