import { describe, expect, it } from "vitest";
import {
  DARK_SURFACE,
  LIGHT_SURFACE,
  MIN_TEXT_CONTRAST,
  NEAR_BLACK,
  WHITE,
  contrast,
  parseColor,
  readableOn,
  textOn,
  type Rgb,
} from "./contrast.js";

/** 4,913 colours: every channel in steps of 16 (0, 16, …, 240, 255). */
const grid: Rgb[] = [];
const steps = [...Array.from({ length: 16 }, (_, i) => i * 16), 255];
for (const r of steps) for (const g of steps) for (const b of steps) grid.push([r, g, b]);

describe("text colours chosen by contrast for any primary colour (issue 24, WCAG 2.2 AA)", () => {
  it("the ratio is WCAG's: white on the default #e56606 is 3.37:1, black on white 21:1", () => {
    expect(contrast(WHITE, parseColor("#e56606")!)).toBeCloseTo(3.37, 2);
    expect(contrast([0, 0, 0], WHITE)).toBeCloseTo(21, 5);
  });

  it("text on a primary surface reaches 4.5:1 on every colour of the grid", () => {
    const failing = grid.filter((c) => contrast(textOn(c), c) < MIN_TEXT_CONTRAST);
    expect(failing).toEqual([]);
  });

  it("primary-coloured text on the light surfaces reaches 4.5:1 for every colour of the grid", () => {
    const failing = grid.filter(
      (c) =>
        contrast(readableOn(c), LIGHT_SURFACE) < MIN_TEXT_CONTRAST ||
        contrast(readableOn(c), WHITE) < MIN_TEXT_CONTRAST,
    );
    expect(failing).toEqual([]);
  });

  it("primary-coloured text on the dark scheme's surfaces reaches 4.5:1 for every colour of the grid", () => {
    const failing = grid.filter(
      (c) =>
        contrast(readableOn(c, DARK_SURFACE), DARK_SURFACE) < MIN_TEXT_CONTRAST ||
        contrast(readableOn(c, DARK_SURFACE), [20, 20, 22]) < MIN_TEXT_CONTRAST,
    );
    expect(failing).toEqual([]);
    // The default orange reads on the dark surfaces as it is; a dark blue is lightened.
    expect(readableOn(parseColor("#e56606")!, DARK_SURFACE)).toEqual([229, 102, 6]);
    const blue = readableOn([0, 51, 153], DARK_SURFACE);
    expect(blue[2]).toBeGreaterThan(153);
    expect(blue[2]).toBeGreaterThan(blue[0]); // still blue, lighter
  });

  it("white stays on a dark primary; the default orange gets near-black text and a darker orange as text", () => {
    expect(textOn([0, 51, 153])).toEqual(WHITE);
    expect(textOn(parseColor("#e56606")!)).toEqual(NEAR_BLACK);
    const text = readableOn(parseColor("#e56606")!);
    expect(text[0]).toBeGreaterThan(text[1]); // still orange, darker
    expect(text[0]).toBeLessThan(229);
    // A colour that already reads is kept as it is.
    expect(readableOn([0, 51, 153])).toEqual([0, 51, 153]);
  });

  it("reads the colours a browser computes, and hex", () => {
    expect(parseColor("rgb(229, 102, 6)")).toEqual([229, 102, 6]);
    expect(parseColor("rgba(0, 0, 0, 0.5)")).toEqual([0, 0, 0]);
    expect(parseColor("rgb(1 2 3)")).toEqual([1, 2, 3]);
    expect(parseColor("#abc")).toEqual([170, 187, 204]);
    expect(parseColor("tomato")).toBeNull();
  });
});
