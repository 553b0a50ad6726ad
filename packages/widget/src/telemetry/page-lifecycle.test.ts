import { describe, expect, it, vi } from "vitest";
import { onPageHide, onPageRestore } from "./page-lifecycle.js";

/** A browser's PageTransitionEvent (happy-dom's has no `persisted`). */
const transition = (type: string, persisted: boolean) =>
  Object.assign(new Event(type), { persisted });

describe("the host page's lifecycle for telemetry", () => {
  it("pagehide is the page being left, for good or into the back/forward cache", () => {
    const page = new EventTarget();
    const hidden = vi.fn();
    onPageHide(page)(hidden);
    page.dispatchEvent(transition("pagehide", false));
    page.dispatchEvent(transition("pagehide", true));
    expect(hidden).toHaveBeenCalledTimes(2);
  });

  it("only a pageshow from the back/forward cache (persisted) is a return", () => {
    const page = new EventTarget();
    const restored = vi.fn();
    onPageRestore(page)(restored);
    page.dispatchEvent(transition("pageshow", false));
    expect(restored).not.toHaveBeenCalled();
    page.dispatchEvent(transition("pageshow", true));
    expect(restored).toHaveBeenCalledTimes(1);
  });
});
