/// <reference types="vite/client" />
/**
 * The launcher's own texts in every locale, in the first script (issue 61): its name, the
 * loading indicator's and the error notice's are read before the visitor's locale table (loaded with the rest) exists.
 * Only these keys of each table are bundled (named imports of the JSON files).
 */
import type { Locale } from "../locale.js";
import { LAUNCHER_EN } from "../texts.js";

export interface LauncherTexts {
  LANG: string;
  DIR: string;
  OPEN: string;
  LOADING: string;
  ERROR_NOTICE: string;
  /** The launcher's name with unread messages, when a chat resumes. */
  UNREAD_ONE: string;
  UNREAD_OTHER: string;
}

type Key = Exclude<keyof LauncherTexts, "LANG">;

const TABLES: Record<Key, Record<string, unknown>> = {
  DIR: import.meta.glob("../locales/*.json", { eager: true, import: "DIR" }),
  OPEN: import.meta.glob("../locales/*.json", { eager: true, import: "OPEN" }),
  LOADING: import.meta.glob("../locales/*.json", { eager: true, import: "LOADING" }),
  ERROR_NOTICE: import.meta.glob("../locales/*.json", { eager: true, import: "ERROR_NOTICE" }),
  UNREAD_ONE: import.meta.glob("../locales/*.json", { eager: true, import: "UNREAD_ONE" }),
  UNREAD_OTHER: import.meta.glob("../locales/*.json", { eager: true, import: "UNREAD_OTHER" }),
};

/** The locale's launcher texts; English for any the table lacks. */
export function launcherTexts(locale: Locale): LauncherTexts {
  const pick = (key: Key): string => {
    const value = TABLES[key][`../locales/${locale}.json`];
    return typeof value === "string" && value !== "" ? value : LAUNCHER_EN[key];
  };
  return {
    LANG: locale,
    DIR: pick("DIR"),
    OPEN: pick("OPEN"),
    LOADING: pick("LOADING"),
    ERROR_NOTICE: pick("ERROR_NOTICE"),
    UNREAD_ONE: pick("UNREAD_ONE"),
    UNREAD_OTHER: pick("UNREAD_OTHER"),
  };
}
