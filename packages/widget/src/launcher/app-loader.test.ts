import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeLogger } from "../test-support/fakes.js";
import { APP_LOAD_TIMEOUT_MS, APP_TIMED_OUT, appLoader } from "./app-loader.js";
import type { AppMount } from "./element.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const mounted: AppMount = () => ({ render() {}, unmount() {} });

describe("loading the app (issue 61)", () => {
  it("loads once: every later intent gets the same app", async () => {
    const load = vi.fn(async () => "app");
    const mount = vi.fn(() => mounted);
    const loader = appLoader(load, mount, fakeLogger());
    const [a, b] = await Promise.all([loader(), loader()]);
    expect([a, b, await loader()]).toEqual([mounted, mounted, mounted]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it("a script that never comes is given up after APP_LOAD_TIMEOUT_MS, exactly; the next intent tries again", async () => {
    const logger = fakeLogger();
    const load = vi.fn(() => new Promise<string | null>(() => {}));
    const loader = appLoader(load, () => mounted, logger);
    let result: AppMount | null | undefined;
    void loader().then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(APP_LOAD_TIMEOUT_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(APP_TIMED_OUT);
    void loader();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("a script refused, or a mount that throws, gives null and is tried again", async () => {
    const logger = fakeLogger();
    const load = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce(null);
    load.mockResolvedValue("app");
    const mount = vi
      .fn<(app: string) => AppMount>()
      .mockImplementationOnce(() => {
        throw new Error("broken build");
      })
      .mockReturnValue(mounted);
    const loader = appLoader(load, mount, logger);
    expect(await loader()).toBeNull();
    expect(await loader()).toBeNull();
    expect(logger.error).toHaveBeenCalledWith(new Error("broken build"));
    expect(await loader()).toBe(mounted);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
