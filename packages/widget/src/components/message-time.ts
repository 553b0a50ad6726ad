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

const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

/** "14:05" (or the visitor's locale's form) for an ISO time. */
export const formatTime = (iso: string): string => clock.format(new Date(iso));
