import { describe, expect, it } from "vitest";
import { makeTimeslots, timeslotRuleProblem } from "./timeslots.js";

describe("a flow's call-back slots are made when sent (issue 26)", () => {
  it("each time on each of the next days, tomorrow first, with the zone's offset on that day", () => {
    // Saturday 24 October 2026, 23:30 in London (BST): tomorrow is Sunday 25, when BST ends.
    const now = Date.parse("2026-10-24T22:30:00Z");
    const slots = makeTimeslots(
      { days: 2, times: ["14:00", "09:30"], duration: 15 },
      "Europe/London",
      now,
    );
    expect(slots).toEqual([
      { date: "2026-10-25T09:30+00:00", duration: 15 },
      { date: "2026-10-25T14:00+00:00", duration: 15 },
      { date: "2026-10-26T09:30+00:00", duration: 15 },
      { date: "2026-10-26T14:00+00:00", duration: 15 },
    ]);
    const summer = makeTimeslots(
      { days: 1, times: ["10:00"], duration: 30 },
      "Europe/London",
      now - 86_400_000,
    );
    expect(summer).toEqual([{ date: "2026-10-24T10:00+01:00", duration: 30 }]);
  });

  it("counts days in the zone, not in UTC, and writes negative offsets", () => {
    // 20:00 on 30 November in New York is already 1 December in UTC.
    const now = Date.parse("2026-12-01T01:00:00Z");
    expect(
      makeTimeslots({ days: 1, times: ["08:00"], duration: 20 }, "America/New_York", now),
    ).toEqual([{ date: "2026-12-01T08:00-05:00", duration: 20 }]);
    expect(makeTimeslots({ days: 1, times: ["08:00"], duration: 20 }, "UTC", now)).toEqual([
      { date: "2026-12-02T08:00+00:00", duration: 20 },
    ]);
  });

  it.each([
    [{ days: 0, times: ["10:00"], duration: 15 }, "days"],
    [{ days: 15, times: ["10:00"], duration: 15 }, "days"],
    [{ days: 1, times: [], duration: 15 }, "times"],
    [{ days: 1, times: ["25:00"], duration: 15 }, "times"],
    [{ days: 1, times: ["9:00"], duration: 15 }, "times"],
    [{ days: 7, times: ["09:00", "12:00", "15:00"], duration: 15 }, "more than 20 slots"],
    [{ days: 1, times: ["09:00"], duration: 0 }, "duration"],
    [{ days: 1, times: ["09:00"], duration: 1.5 }, "duration"],
  ])("refuses %j", (rule, expected) => {
    expect(timeslotRuleProblem(rule)).toContain(expected);
  });

  it("accepts a good rule", () => {
    expect(timeslotRuleProblem({ days: 3, times: ["10:00", "16:30"], duration: 15 })).toBeNull();
  });
});
