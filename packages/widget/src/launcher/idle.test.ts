import { describe, expect, it, vi } from "vitest";
import { IDLE_TIMEOUT_MS, whenIdle } from "./idle.js";
import type { IdleWindow } from "./idle.js";

/** A window whose load event and idle callbacks the test fires. */
function fakeWindow(readyState: DocumentReadyState, idleCallbacks: boolean) {
  const onLoad: (() => void)[] = [];
  const idle: { run: () => void; timeout: number }[] = [];
  const timeouts: { run: () => void; ms: number }[] = [];
  const win: IdleWindow = {
    document: { readyState },
    addEventListener: (_type, listener) => onLoad.push(listener),
    requestIdleCallback: idleCallbacks
      ? (run, options) => idle.push({ run, timeout: options.timeout })
      : undefined,
    setTimeout: (run, ms) => timeouts.push({ run, ms }),
  };
  return { win, onLoad, idle, timeouts };
}

describe('data-preload="idle": when the rest loads (issue 61)', () => {
  it("after the page's load event, at the browser's first idle moment (at most 5 s on)", () => {
    const w = fakeWindow("interactive", true);
    const run = vi.fn();
    whenIdle(w.win, run);
    expect(w.idle).toHaveLength(0);
    w.onLoad.forEach((listener) => listener());
    expect(w.idle).toEqual([{ run, timeout: IDLE_TIMEOUT_MS }]);
    expect(IDLE_TIMEOUT_MS).toBe(5_000);
    expect(run).not.toHaveBeenCalled();
    w.idle[0]!.run();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("a page already loaded asks for the idle moment at once", () => {
    const w = fakeWindow("complete", true);
    whenIdle(w.win, () => {});
    expect(w.onLoad).toHaveLength(0);
    expect(w.idle).toHaveLength(1);
  });

  it("without idle callbacks (Safari), right after the load event", () => {
    const w = fakeWindow("loading", false);
    const run = vi.fn();
    whenIdle(w.win, run);
    expect(w.timeouts).toHaveLength(0);
    w.onLoad.forEach((listener) => listener());
    expect(w.timeouts).toEqual([{ run, ms: 0 }]);
  });
});
