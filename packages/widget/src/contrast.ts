/**
 * WCAG 2.2 contrast for whatever primary colour a host page sets (issue 24): text on a primary
 * surface is white, near-black or black, whichever reaches 4.5:1 first (one of white and black
 * always does); primary-coloured text is the primary itself where it reads, else a darker shade
 * of it on the light scheme's surfaces and a lighter one on the dark scheme's.
 */
export type Rgb = readonly [number, number, number];

/** WCAG 2.2 AA for normal text (1.4.3); also above the 3:1 of controls' borders (1.4.11). */
export const MIN_TEXT_CONTRAST = 4.5;
export const WHITE: Rgb = [255, 255, 255];
export const NEAR_BLACK: Rgb = [26, 26, 26];
const BLACK: Rgb = [0, 0, 0];
/** The darkest light surface primary-coloured text sits on (the transcript's background). */
export const LIGHT_SURFACE: Rgb = [247, 247, 248];
/** The lightest dark surface primary-coloured text sits on (bubbles, options: styles.ts). */
export const DARK_SURFACE: Rgb = [31, 31, 35];

/** `rgb(…)`/`rgba(…)` as a browser computes a colour, or `#rgb`/`#rrggbb`; null otherwise. */
export function parseColor(css: string): Rgb | null {
  const value = css.trim();
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(value);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two colours, from 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Text on a surface of this colour: white, else near-black, else black. */
export function textOn(surface: Rgb): Rgb {
  return [WHITE, NEAR_BLACK].find((c) => contrast(c, surface) >= MIN_TEXT_CONTRAST) ?? BLACK;
}

/**
 * This colour as text on `background`: itself when it reads, else darkened (on a light
 * background) or lightened (on a dark one) step by step until it does.
 */
export function readableOn(color: Rgb, background: Rgb = LIGHT_SURFACE): Rgb {
  const dark = luminance(background) < 0.18;
  let shade = color;
  while (contrast(shade, background) < MIN_TEXT_CONTRAST) {
    shade = shade.map((c) =>
      dark ? Math.ceil(c + (255 - c) * 0.1) : Math.floor(c * 0.9),
    ) as unknown as Rgb;
  }
  return shade;
}

export const toCss = ([r, g, b]: Rgb): string => `rgb(${r} ${g} ${b})`;

/**
 * Set the text colours for the host's primary colour on the widget's root, as CSS variables
 * (`--cw-on-primary`; `--cw-light-primary-text` and `--cw-dark-primary-text`, of which the
 * stylesheet takes the one of the scheme it shows); read once, when the widget mounts. Where
 * the colour cannot be read the stylesheet's defaults (those of #e56606) stay.
 */
export function applyPrimaryContrast(root: HTMLElement): void {
  const probe = root.ownerDocument.createElement("span");
  probe.style.color = "var(--cw-primary)";
  root.append(probe);
  const primary = parseColor(getComputedStyle(probe).color);
  probe.remove();
  if (!primary) return;
  root.style.setProperty("--cw-on-primary", toCss(textOn(primary)));
  root.style.setProperty("--cw-light-primary-text", toCss(readableOn(primary)));
  root.style.setProperty("--cw-dark-primary-text", toCss(readableOn(primary, DARK_SURFACE)));
}
