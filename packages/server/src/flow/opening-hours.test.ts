import { describe, expect, it } from "vitest";
import { isOpen, isTimeZone, parseRange } from "./opening-hours.js";

const london = {
  timeZone: "Europe/London",
  days: { mon: "09:00-17:30", sat: "10:00-14:00", sun: "00:00-24:00" },
};
const at = (iso: string) => Date.parse(iso);

describe("a flow's opening hours", () => {
  it("are open from the first minute up to, not including, the last, in the flow's time zone", () => {
    // Monday 2026-11-23; London is on UTC in November.
    expect(isOpen(london, at("2026-11-23T08:59:00Z"))).toBe(false);
    expect(isOpen(london, at("2026-11-23T09:00:00Z"))).toBe(true);
    expect(isOpen(london, at("2026-11-23T17:29:59Z"))).toBe(true);
    expect(isOpen(london, at("2026-11-23T17:30:00Z"))).toBe(false);
  });

  it("follow summer time: 09:00 in London in July is 08:00 UTC", () => {
    // Monday 2026-07-06.
    expect(isOpen(london, at("2026-07-06T07:59:00Z"))).toBe(false);
    expect(isOpen(london, at("2026-07-06T08:00:00Z"))).toBe(true);
    expect(isOpen(london, at("2026-07-06T16:29:00Z"))).toBe(true);
    expect(isOpen(london, at("2026-07-06T16:30:00Z"))).toBe(false);
  });

  it("a day not listed is closed all day; 00:00-24:00 is open all day", () => {
    expect(isOpen(london, at("2026-11-24T12:00:00Z"))).toBe(false); // Tuesday
    expect(isOpen(london, at("2026-11-29T00:00:00Z"))).toBe(true); // Sunday
    expect(isOpen(london, at("2026-11-29T23:59:00Z"))).toBe(true);
  });

  it("the weekday is the time zone's: Monday 01:00 in Tokyo is still Sunday in UTC", () => {
    const tokyo = { timeZone: "Asia/Tokyo", days: { mon: "00:00-02:00" } };
    expect(isOpen(tokyo, at("2026-11-22T16:30:00Z"))).toBe(true);
    expect(isOpen(tokyo, at("2026-11-23T16:30:00Z"))).toBe(false);
  });

  it("change at the minute's first millisecond, also in a zone 45 minutes off the hour", () => {
    // Kathmandu is UTC+05:45: 17:30 there is 11:45 UTC.
    const kathmandu = { timeZone: "Asia/Kathmandu", days: { mon: "09:00-17:30" } };
    const answers = [
      "2026-11-23T11:44:00.000Z",
      "2026-11-23T11:44:59.999Z",
      "2026-11-23T11:45:00.000Z",
      "2026-11-23T11:44:30.000Z",
      "2026-11-23T11:45:59.999Z",
    ].map((iso) => isOpen(kathmandu, at(iso)));
    expect(answers).toEqual([true, true, false, true, false]);
    // Hours of their own, asked in the same minute, get their own answer.
    const closedMonday = { ...kathmandu, days: {} };
    expect(isOpen(closedMonday, at("2026-11-23T11:44:00.000Z"))).toBe(false);
    expect(isOpen(kathmandu, at("2026-11-23T11:44:00.000Z"))).toBe(true);
  });

  it("ranges are HH:MM-HH:MM, the end after the start, at most 24:00; time zones must exist", () => {
    expect(parseRange("09:00-17:30")).toEqual([540, 1050]);
    expect(parseRange("00:00-24:00")).toEqual([0, 1440]);
    for (const bad of [
      "9:00-17:00",
      "17:00-09:00",
      "09:00-09:00",
      "09:00-24:30",
      "25:00-26:00",
      "09:00",
    ])
      expect(parseRange(bad), bad).toBeNull();
    expect(isTimeZone("Europe/London")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
