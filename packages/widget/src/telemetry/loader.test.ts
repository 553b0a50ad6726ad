import { describe, expect, it } from "vitest";
import { fakeLogger } from "../test-support/fakes.js";
import { TELEMETRY_GLOBAL } from "./contract.js";
import type { TelemetryHost, TelemetryModule } from "./contract.js";
import { loadTelemetryModule, TELEMETRY_LOAD_FAILED, telemetryScriptUrl } from "./loader.js";

interface FakeScript {
  src?: string;
  async?: boolean;
  onload?: () => void;
  onerror?: () => void;
}

/** A document whose scripts never load by themselves: the test fires load or error. */
function fakeDocument() {
  const appended: FakeScript[] = [];
  const doc = {
    createElement: () => ({}) as FakeScript,
    head: { appendChild: (s: FakeScript) => appended.push(s) },
  } as unknown as Document;
  return { doc, appended };
}

describe("the telemetry script", () => {
  it("sits beside the widget script", () => {
    expect(telemetryScriptUrl("https://cc.example/widget/chat-widget.js")).toBe(
      "https://cc.example/widget/chat-telemetry.js",
    );
  });

  it("is injected as one <script async>; the module it registers is handed back", async () => {
    const host: TelemetryHost = {};
    const { doc, appended } = fakeDocument();
    const url = "https://cc.example/widget/chat-telemetry.js";
    const loading = loadTelemetryModule(url, doc, host, fakeLogger());
    expect(appended).toHaveLength(1);
    expect([appended[0]!.src, appended[0]!.async]).toEqual([url, true]);
    const module = {} as TelemetryModule;
    host[TELEMETRY_GLOBAL] = module;
    appended[0]!.onload?.();
    expect(await loading).toBe(module);
  });

  it("a loading failure only logs", async () => {
    const logger = fakeLogger();
    const { doc, appended } = fakeDocument();
    const url = "http://127.0.0.1:9/chat-telemetry.js";
    const loading = loadTelemetryModule(url, doc, {}, logger);
    appended[0]!.onerror?.();
    expect(await loading).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(TELEMETRY_LOAD_FAILED, url);
  });

  it("is not injected again when its module is registered already", async () => {
    const { doc, appended } = fakeDocument();
    const module = {} as TelemetryModule;
    const loading = loadTelemetryModule("x", doc, { [TELEMETRY_GLOBAL]: module }, fakeLogger());
    expect(appended).toHaveLength(0);
    expect(await loading).toBe(module);
  });
});
