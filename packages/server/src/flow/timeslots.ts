/**
 * A flow's TimePicker offers times to come, so its slots cannot be written as dates: a flow writes
 * `"timeslots": { "days": 3, "times": ["10:00", "14:00"], "duration": 15 }` and the slots are made
 * when the template is sent: each time on each of the next `days` days (tomorrow first), in the
 * flow's time zone, as ISO 8601 with that zone's offset on that day.
 */
import { isObject, TemplateLimits, type TimeSlot } from "@chat-widget/protocol";

export interface TimeslotRule {
  days: number;
  /** Local times, "HH:MM". */
  times: string[];
  /** Minutes. */
  duration: number;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MAX_SLOTS = TemplateLimits.TimePicker;

type Json = Record<string, unknown>;

/** A flow template's timeslots rule: null unless a TimePicker whose `timeslots` is an object. */
export function timeslotRule(template: Json): Json | null {
  const data = template.data;
  if (template.templateType !== "TimePicker" || !isObject(data) || !isObject(data.content))
    return null;
  const rule = data.content.timeslots;
  return isObject(rule) ? rule : null;
}

/** The template with `timeslots` in place of its rule. */
export function withTimeslots(template: Json, timeslots: TimeSlot[]): Json {
  const data = template.data as { content: Json };
  return { ...template, data: { ...data, content: { ...data.content, timeslots } } };
}

/** The first thing wrong with a rule, or null. */
export function timeslotRuleProblem(rule: Record<string, unknown>): string | null {
  const { days, times, duration } = rule;
  if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > 14)
    return "timeslots.days must be a whole number from 1 to 14";
  if (!Array.isArray(times) || times.length === 0 || !times.every((t) => TIME.test(String(t))))
    return 'timeslots.times must list times such as "09:30"';
  if ((days as number) * times.length > MAX_SLOTS)
    return `timeslots make more than ${MAX_SLOTS} slots (days × times)`;
  if (!Number.isInteger(duration) || (duration as number) < 1 || (duration as number) > 1440)
    return "timeslots.duration must be a whole number of minutes from 1 to 1440";
  return null;
}

/** The zone's offset from UTC at `at`, in minutes. */
function offsetMinutes(timeZone: string, at: number): number {
  const name =
    new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** "2026-11-30T10:00+00:00": the local time `minute` on the zone's `day` (a UTC midnight). */
function slotDate(timeZone: string, day: Date, minute: number): string {
  const wall = day.getTime() + minute * 60_000;
  // The offset where that wall time falls (looked up twice: a day may change offset).
  let offset = offsetMinutes(timeZone, wall);
  offset = offsetMinutes(timeZone, wall - offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return (
    `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}` +
    `T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The rule's slots from `now` (epoch milliseconds) in `timeZone`. */
export function makeTimeslots(rule: TimeslotRule, timeZone: string, now: number): TimeSlot[] {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const [y, m, d] = [part("year"), part("month") - 1, part("day")];
  const minutes = rule.times
    .map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)))
    .sort((a, b) => a - b);
  const slots: TimeSlot[] = [];
  for (let k = 1; k <= rule.days; k++) {
    const day = new Date(Date.UTC(y, m, d + k));
    for (const minute of minutes) {
      slots.push({ date: slotDate(timeZone, day, minute), duration: rule.duration });
    }
  }
  return slots;
}
