/**
 * The visitor's browser, operating system and language as the visitor panel names them, from
 * the headers their browser sent at start-chat (User-Agent through ua-parser-js; the first of
 * Accept-Language's languages by weight).
 */
import { UAParser } from "ua-parser-js";

export interface BrowserDescription {
  /** e.g. "Chrome 131", "Mobile Safari 18.1". */
  browser?: string;
  /** e.g. "Windows 10", "Mac OS 10.15.7", "Android 14". */
  operatingSystem?: string;
}

const named = (name?: string, version?: string): string | undefined =>
  name ? (version ? `${name} ${version}` : name) : undefined;

export function describeBrowser(userAgent: string): BrowserDescription {
  if (!userAgent) return {};
  const { browser, os } = new UAParser(userAgent).getResult();
  const out: BrowserDescription = {};
  const b = named(browser.name, browser.major);
  const o = named(os.name, os.version);
  if (b) out.browser = b;
  if (o) out.operatingSystem = o;
  return out;
}

/**
 * The language the browser asks for first: the tag of the highest weight (the first of equal
 * ones), canonical ("fr-fr" → "fr-FR"); undefined for none, "*" or a tag that is not BCP 47.
 */
export function firstLanguage(acceptLanguage: string): string | undefined {
  let best: { tag: string; q: number } | undefined;
  for (const part of acceptLanguage.split(",")) {
    const [rawTag = "", ...params] = part.trim().split(";");
    const tag = rawTag.trim();
    if (!tag || tag === "*") continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = weight === undefined ? 1 : Number(weight.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (best && q <= best.q) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) best = { tag: canonical, q };
    } catch {
      /* not a language tag: skipped */
    }
  }
  return best?.tag;
}
