import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultEnv, resolveEnv } from "./env.js";

describe("env: user agent and page visibility", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("The default env reads navigator.userAgent and document.visibilityState when asked, not when created", () => {
    const env = defaultEnv();
    vi.stubGlobal("navigator", { userAgent: "Mozilla/5.0 (iPhone)", onLine: false });
    vi.stubGlobal("document", { visibilityState: "hidden" });
    expect(env.userAgent()).toBe("Mozilla/5.0 (iPhone)");
    expect(env.isOnline()).toBe(false);
    expect(env.isHidden()).toBe(true);
    vi.stubGlobal("document", { visibilityState: "visible" });
    expect(env.isHidden()).toBe(false);
  });

  it("The default env listens to the document's visibilitychange and removes its listener", () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: "visible" });
    vi.stubGlobal("document", doc);
    const seen: string[] = [];
    const stop = defaultEnv().onVisibilityChange(() => seen.push(doc.visibilityState));
    doc.visibilityState = "hidden";
    doc.dispatchEvent(new Event("visibilitychange"));
    stop();
    doc.visibilityState = "visible";
    doc.dispatchEvent(new Event("visibilitychange"));
    expect(seen).toEqual(["hidden"]);
  });

  it("Without navigator or document (a server, a worker) the page counts as online, visible and not mobile", () => {
    vi.stubGlobal("navigator", undefined);
    vi.stubGlobal("document", undefined);
    const env = defaultEnv();
    expect(env.userAgent()).toBe("");
    expect(env.isOnline()).toBe(true);
    expect(env.isHidden()).toBe(false);
    expect(() => env.onVisibilityChange(() => {})()).not.toThrow();
  });

  it("An injected user agent and visibility replace the defaults", () => {
    const listener = vi.fn(() => () => {});
    const env = resolveEnv({
      userAgent: () => "Android",
      isHidden: () => true,
      onVisibilityChange: listener,
    });
    expect(env.userAgent()).toBe("Android");
    expect(env.isHidden()).toBe(true);
    env.onVisibilityChange(() => {});
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
