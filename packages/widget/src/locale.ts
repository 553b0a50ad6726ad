/**
 * The visitor's language (issue 24): `data-locale` on the script tag, else the host page's
 * `lang`, else the browser's languages; English when none is one of ours. English is built in;
 * another locale's table loads as `locales/<code>.json` beside the widget script.
 */
import type { Logger } from "./logger.js";
import { en, type Texts } from "./texts.js";

export const LOCALES = [
  "en",
  "ar",
  "de",
  "es",
  "fr",
  "he",
  "it",
  "ja",
  "nl",
  "pl",
  "pt",
  "sv",
  "tr",
] as const;
export type Locale = (typeof LOCALES)[number];

/** The first wanted language tag we have ("pt-BR" → pt, the old "iw" → he), else English. */
export function chooseLocale(wanted: readonly (string | null | undefined)[]): Locale {
  for (const tag of wanted) {
    const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
    const code = primary === "iw" ? "he" : primary;
    if ((LOCALES as readonly string[]).includes(code ?? "")) return code as Locale;
  }
  return "en";
}

/** The visitor's locale: `data-locale`, else the host page's `lang`, else the browser's. */
export function visitorLocale(dataLocale: string | undefined): Locale {
  return chooseLocale([dataLocale, document.documentElement.lang, ...navigator.languages]);
}

export const LOCALE_LOAD_FAILED = "The widget's locale could not be loaded; English is shown";

/** Where a locale's table is: beside the widget's script. */
export const localeTableUrl = (locale: Locale, scriptUrl: string): string =>
  new URL(`locales/${locale}.json`, scriptUrl).href;

/** A locale table's JSON; rejects on an answer that is not ok. */
export const fetchLocaleTable = (url: string): Promise<unknown> =>
  fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${r.status}`))));

/**
 * The locale's table, with English for any key it lacks or holds as something other than text;
 * null for English, or when the table cannot be loaded (English stays).
 */
export async function loadTexts(
  locale: Locale,
  scriptUrl: string,
  fetchJson: (url: string) => Promise<unknown>,
  logger: Logger,
): Promise<Texts | null> {
  if (locale === "en") return null;
  const url = localeTableUrl(locale, scriptUrl);
  try {
    const table = await fetchJson(url);
    if (typeof table !== "object" || table === null) throw new Error("not a JSON object");
    const texts: Texts = { ...en };
    for (const key of Object.keys(en) as (keyof Texts)[]) {
      const value = (table as Record<string, unknown>)[key];
      if (typeof value === "string" && value !== "") texts[key] = value;
    }
    return texts;
  } catch (error) {
    logger.warn(LOCALE_LOAD_FAILED, url, error);
    return null;
  }
}
