/**
 * Times on messages (issue 24): each message shows when it was sent, except where the next one
 * is from the same side within a minute (a group shows its last time only).
 */
import type { Entry } from "../state/entries.js";

/** Messages closer than this to the next one from the same side share its time. */
export const TIME_GROUP_MS = 60_000;

const isMessage = (e: Entry | undefined): e is Entry =>
  e !== undefined && (e.kind === "text" || e.kind === "attachment");

/** Whether `entries[i]` shows its time. */
export function showsTime(entries: readonly Entry[], i: number): boolean {
  const entry = entries[i];
  if (!isMessage(entry) || !entry.absoluteTime) return false;
  const next = entries[i + 1];
  if (!isMessage(next) || !next.absoluteTime) return true;
  if (next.participantRole !== entry.participantRole) return true;
  return Date.parse(next.absoluteTime) - Date.parse(entry.absoluteTime) >= TIME_GROUP_MS;
}

/**
 * The locale times are written in: the browser's own form of the widget's language where it has
 * one (a British visitor of the English widget gets en-GB's 24-hour clock), else the widget's
 * language itself (a German widget in an English browser writes German times).
 */
export const timeLocale = (lang: string, browser: readonly string[]): string =>
  browser.find((tag) => tag.toLowerCase().split("-")[0] === lang) ?? lang;

const clocks = new Map<string, Intl.DateTimeFormat>();

/** "14:05" (or that locale's form) for an ISO time. */
export function formatTime(iso: string, locale: string): string {
  let clock = clocks.get(locale);
  if (!clock) {
    clock = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" });
    clocks.set(locale, clock);
  }
  return clock.format(new Date(iso));
}
