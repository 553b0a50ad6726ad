/**
 * A long transcript shows a window of its entries (issue 61). The scrolling itself, with real
 * layout, is tested in Chromium (e2e/widget/long-transcript.test.ts); here, which entries show.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Transcript } from "../components/Transcript.js";
import { LONG_TRANSCRIPT } from "../state/constants.js";
import type { Entry } from "../state/entries.js";
import { ViewsContext } from "./context.js";
import * as views from "./entry.js";
import { scrollTo as scrollLog } from "../test-support/scroll.js";
import { EDGE_PX, STEP, WINDOW } from "./TranscriptWindow.js";

afterEach(cleanup);

const message = (n: number): Entry => ({
  kind: "text",
  id: `m${n}`,
  absoluteTime: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  contentType: "text/plain",
  participantRole: "agent",
  displayName: "Sam",
  content: `Message ${n}`,
});
const messages = (count: number, first = 1) =>
  Array.from({ length: count }, (_, i) => message(first + i));

function renderTranscript(entries: readonly Entry[], withViews = true) {
  const props = {
    typing: false,
    botActive: false,
    onChoose: () => {},
    onRetry: () => {},
    onDownload: async () => null,
    onThumbnail: async () => null,
  };
  const ui = (list: readonly Entry[]) => (
    <ViewsContext.Provider value={withViews ? views : null}>
      <Transcript entries={list} {...props} />
    </ViewsContext.Provider>
  );
  const view = render(ui(entries));
  return { rerender: (list: readonly Entry[]) => view.rerender(ui(list)) };
}

const log = () => screen.getByRole("log");
/** The numbers of the messages the log holds, oldest first. */
const shown = () =>
  [...log().querySelectorAll(".message")].map((m) => Number(m.textContent!.replace(/\D/g, "")));

/** Give the log a layout jsdom lacks: `height` px of content, scrolled to `top`. */
const scrollTo = (top: number) => scrollLog(log(), top);

describe("a long transcript", () => {
  it("shows every entry up to LONG_TRANSCRIPT, then only the newest WINDOW", () => {
    const { rerender } = renderTranscript(messages(LONG_TRANSCRIPT));
    expect(shown()).toHaveLength(LONG_TRANSCRIPT);
    rerender(messages(5000));
    expect(shown()).toEqual(messages(WINDOW, 5001 - WINDOW).map((_, i) => 5001 - WINDOW + i));
    expect(log().getAttribute("aria-live")).toBe("polite");
  });

  it("without the views script (not loaded yet) it shows every entry", () => {
    renderTranscript(messages(LONG_TRANSCRIPT + 1), false);
    expect(shown()).toHaveLength(LONG_TRANSCRIPT + 1);
  });

  it("Home on the log shows the oldest entries, End the newest; the log is silent in between", () => {
    renderTranscript(messages(1000));
    fireEvent.keyDown(log(), { key: "Home" });
    expect(shown()[0]).toBe(1);
    expect(shown()).toHaveLength(WINDOW);
    expect(log().getAttribute("aria-live")).toBe("off");
    fireEvent.keyDown(log(), { key: "End" });
    expect(shown().at(-1)).toBe(1000);
    expect(log().getAttribute("aria-live")).toBe("polite");
  });

  it("Home inside a message (a link, a button) is left alone", () => {
    renderTranscript(messages(1000));
    fireEvent.keyDown(log().querySelector(".message")!, { key: "Home" });
    fireEvent.keyDown(log(), { key: "Home", shiftKey: true });
    expect(shown().at(-1)).toBe(1000);
  });

  it("scrolled near its top, the window takes STEP older entries; near its bottom, newer ones", () => {
    renderTranscript(messages(1000));
    scrollTo(EDGE_PX - 1);
    expect(shown()[0]).toBe(1001 - WINDOW - STEP);
    expect(shown()).toHaveLength(WINDOW);
    expect(log().getAttribute("aria-live")).toBe("off");
    scrollTo(EDGE_PX - 1);
    expect(shown()[0]).toBe(1001 - WINDOW - 2 * STEP);
    scrollTo(EDGE_PX); // not near enough: stays
    expect(shown()[0]).toBe(1001 - WINDOW - 2 * STEP);
    scrollTo(10_000 - 540 - EDGE_PX + 1);
    expect(shown()[0]).toBe(1001 - WINDOW - STEP);
    scrollTo(10_000 - 540 - EDGE_PX + 1);
    expect(shown().at(-1)).toBe(1000);
    expect(log().getAttribute("aria-live")).toBe("polite");
  });

  it("at the oldest entries, scrolling to the top changes nothing", () => {
    renderTranscript(messages(1000));
    fireEvent.keyDown(log(), { key: "Home" });
    scrollTo(0);
    expect(shown()[0]).toBe(1);
    expect(shown()).toHaveLength(WINDOW);
  });

  it("a new entry while older ones show brings the window back to the newest", () => {
    const { rerender } = renderTranscript(messages(1000));
    fireEvent.keyDown(log(), { key: "Home" });
    rerender(messages(1001));
    expect(shown().at(-1)).toBe(1001);
    expect(shown()).toHaveLength(WINDOW);
    expect(log().getAttribute("aria-live")).toBe("polite");
  });
});
