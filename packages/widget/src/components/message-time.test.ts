import { describe, expect, it } from "vitest";
import type { Entry } from "../state/entries.js";
import { formatTime, showsTime, timeLocale } from "./message-time.js";

const message = (role: Entry["participantRole"], at: string, kind: "text" | "event" = "text") =>
  ({
    kind,
    id: at,
    absoluteTime: at,
    content: "x",
    contentType: "text/plain",
    participantRole: role,
    displayName: "",
  }) as Entry;

describe("times on messages (issue 24)", () => {
  it("a group from one side within a minute shows its last time only", () => {
    const entries = [
      message("agent", "2026-11-25T10:00:00.000Z"),
      message("agent", "2026-11-25T10:00:40.000Z"),
      message("agent", "2026-11-25T10:01:40.000Z"),
      message("customer", "2026-11-25T10:01:50.000Z"),
      message("agent", "2026-11-25T10:01:55.000Z"),
    ];
    expect(entries.map((_, i) => showsTime(entries, i))).toEqual([false, true, true, true, true]);
  });

  it("events and messages still sending (no time yet) show none; a message before an event shows its own", () => {
    const entries = [
      message("agent", "2026-11-25T10:00:00.000Z"),
      message("system", "2026-11-25T10:00:10.000Z", "event"),
      message("customer", ""),
    ];
    expect(entries.map((_, i) => showsTime(entries, i))).toEqual([true, false, false]);
  });

  it("formats hours and minutes in the locale's own form", () => {
    const at = "2026-11-25T10:05:00.000Z";
    const local = new Date(at);
    const hh = String(local.getHours()).padStart(2, "0");
    const mm = String(local.getMinutes()).padStart(2, "0");
    expect(formatTime(at, "de")).toBe(`${hh}:${mm}`);
    expect(formatTime(at, "en-GB")).toBe(`${hh}:${mm}`);
    expect(formatTime(at, "en-US")).toMatch(/^\d{2}:\d{2}\s?[AP]M$/);
  });

  it("times are in the browser's form of the widget's language, else in the widget's language", () => {
    expect(timeLocale("en", ["en-GB", "de-DE"])).toBe("en-GB");
    expect(timeLocale("de", ["en-GB", "de-AT"])).toBe("de-AT");
    expect(timeLocale("de", ["en-US", "en"])).toBe("de");
    expect(timeLocale("pt", ["PT-br"])).toBe("PT-br");
  });
});
