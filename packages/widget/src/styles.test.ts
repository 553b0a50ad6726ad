import { describe, expect, it } from "vitest";
import { contrast, MIN_TEXT_CONTRAST, parseColor } from "./contrast.js";
import { paintedStyles, styles } from "./styles.js";

const rule = (selector: string) => {
  const start = styles.indexOf(`\n${selector}{`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  return styles.slice(start, styles.indexOf("}", start));
};

describe("sizes, positions, z-index and animations as docs/product.md §2 and §9", () => {
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

describe("the light and dark schemes (issue 24)", () => {
  /** The custom properties a rule sets, by name. */
  const variables = (declarations: string) =>
    Object.fromEntries(
      [...declarations.matchAll(/(--cw-[\w-]+):([^;}]+)/g)].map((m) => [m[1]!, m[2]!]),
    );
  const light = variables(rule(".cw"));
  const dark = variables(rule(".cw.dark"));
  const color = (value: string | undefined) =>
    parseColor(value?.replace(/^var\([^,]+,(.+)\)$/, "$1") ?? "")!;

  it("the dark scheme is chosen by data-color-scheme=dark, or by the system when auto", () => {
    const auto = styles.slice(styles.indexOf("@media (prefers-color-scheme:dark){.cw.auto{"));
    expect(auto.length).toBeGreaterThan(0);
    expect(variables(auto.slice(0, auto.indexOf("}")))).toEqual(dark);
    expect(dark["--cw-bg"]).not.toBe(light["--cw-bg"]);
  });

  it("each scheme's texts reach 4.5:1 on each surface they sit on", () => {
    const schemes: [string, Record<string, string>][] = [
      ["light", { ...light, "--cw-fg": "#1f1f1f" }],
      ["dark", dark],
    ];
    for (const [name, scheme] of schemes) {
      for (const text of ["--cw-fg", "--cw-muted", "--cw-danger", "--cw-primary-text"])
        for (const surface of ["--cw-bg", "--cw-surface", "--cw-hover"]) {
          // Primary-coloured on the hover colour: only icons (3:1 is their bar), never text.
          if (text === "--cw-primary-text" && surface === "--cw-hover") continue;
          const ratio = contrast(color(scheme[text]), color(scheme[surface]));
          expect(ratio, `${name} ${text} on ${surface}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
    }
  });
});

describe("the first script's styles (issue 61)", () => {
  const selectors = (css: string) => [...css.matchAll(/^([^@\n{][^{\n]*)\{/gm)].map((m) => m[1]);

  it("carry the launcher, loading indicator, error notice, rings and reduced motion, and no window", () => {
    for (const selector of [
      ".launcher",
      ".loading-indicator",
      ".error-notice",
      ".appear",
      ".rotate",
    ])
      expect(paintedStyles).toContain(`\n${selector}{`);
    expect(paintedStyles).toContain(".launcher:focus-visible{");
    expect(paintedStyles).toContain("@media (prefers-reduced-motion:reduce)");
    for (const selector of [".window", ".transcript", ".composer", ".logo", ".typing .dot"])
      expect(paintedStyles).not.toContain(`\n${selector}{`);
  });

  it("are the full styles' own rules, the same and in the same order", () => {
    const all = selectors(styles);
    const painted = selectors(paintedStyles);
    expect(painted.length).toBeGreaterThan(10);
    const positions = painted.map((selector) => all.indexOf(selector));
    expect(positions).not.toContain(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Reduced motion comes after every animation, the window's typing dots included.
    expect(styles.lastIndexOf("prefers-reduced-motion")).toBeGreaterThan(
      styles.indexOf(".typing .dot{"),
    );
  });
});
