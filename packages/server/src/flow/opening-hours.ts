/**
 * A flow's opening hours (issue 24): for each day of the week the hours advisors answer, in
 * one time zone. A day not listed is closed. `"09:00-17:30"`; `"00:00-24:00"` is all day.
 */

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface OpeningHours {
  /** An IANA time zone, e.g. `Europe/London`. */
  timeZone: string;
  days: Partial<Record<Weekday, string>>;
}

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

/** A day's range as minutes from midnight [from, to), or null when it is not valid. */
export function parseRange(range: string): [number, number] | null {
  const m = RANGE.exec(range);
  if (!m) return null;
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  return to > from && to <= 24 * 60 ? [from, to] : null;
}

/** Whether `timeZone` is one this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Each time zone's weekday-and-time format, made once: making one costs more than the rest of a
 * chat's opening-hours check (issue 27's set-up profile). Only zones the runtime knows get here
 * (an unknown one throws), so the map holds at most the few hundred of them.
 */
const FORMATS = new Map<string, Intl.DateTimeFormat>();

function weekdayAndTime(timeZone: string): Intl.DateTimeFormat {
  let format = FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    FORMATS.set(timeZone, format);
  }
  return format;
}

/**
 * The last answer per hours, by the minute it was for: whether the hours are open changes only
 * on a minute boundary (every time zone's offset is a whole number of minutes today), and a
 * time zone's format costs more than the rest of a chat's set-up check (issue 27's profile).
 */
const LAST = new WeakMap<OpeningHours, { minute: number; open: boolean }>();

/** Whether the hours are open at `at` (epoch milliseconds). */
export function isOpen(hours: OpeningHours, at: number): boolean {
  const minute = Math.floor(at / 60_000);
  const last = LAST.get(hours);
  if (last?.minute === minute) return last.open;
  const open = isOpenAt(hours, at);
  LAST.set(hours, { minute, open });
  return open;
}

function isOpenAt(hours: OpeningHours, at: number): boolean {
  const parts = weekdayAndTime(hours.timeZone).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = part("weekday").toLowerCase() as Weekday;
  const range = hours.days[day];
  const open = range === undefined ? null : parseRange(range);
  if (!open) return false;
  const minute = Number(part("hour")) * 60 + Number(part("minute"));
  return minute >= open[0] && minute < open[1];
}
