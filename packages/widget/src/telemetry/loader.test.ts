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

/** What chat-telemetry.js registers: its two functions (never called here). */
const fakeModule = () =>
  ({ createTelemetry: () => {}, attachSessionMetrics: () => {} }) as unknown as TelemetryModule;

describe("the telemetry script", () => {
  it("sits beside the widget script; its URL carries the version the build gave it", () => {
    expect(telemetryScriptUrl("https://cc.example/widget/chat-widget.js")).toBe(
      "https://cc.example/widget/chat-telemetry.js",
    );
    expect(telemetryScriptUrl("https://cc.example/widget/chat-widget.js?x=1", "0a1b2c")).toBe(
      "https://cc.example/widget/chat-telemetry.js?v=0a1b2c",
    );
  });

  it("is injected as one <script async>; the module it registers is handed back", async () => {
    const host: TelemetryHost = {};
    const { doc, appended } = fakeDocument();
    const url = "https://cc.example/widget/chat-telemetry.js";
    const loading = loadTelemetryModule(url, doc, host, fakeLogger());
    expect(appended).toHaveLength(1);
    expect([appended[0]!.src, appended[0]!.async]).toEqual([url, true]);
    const module = fakeModule();
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
    const module = fakeModule();
    const loading = loadTelemetryModule("x", doc, { [TELEMETRY_GLOBAL]: module }, fakeLogger());
    expect(appended).toHaveLength(0);
    expect(await loading).toBe(module);
  });

  it("a page element named like its global (DOM clobbering) is not taken for it: the script still loads", async () => {
    const clobber = document.createElement("a");
    clobber.id = TELEMETRY_GLOBAL;
    const host = { [TELEMETRY_GLOBAL]: clobber } as unknown as TelemetryHost;
    const logger = fakeLogger();
    const { doc, appended } = fakeDocument();
    const loading = loadTelemetryModule(
      "https://cc.example/widget/chat-telemetry.js",
      doc,
      host,
      logger,
    );
    expect(appended).toHaveLength(1);
    // The script ran but the element is still there (say it failed to register): nothing taken.
    appended[0]!.onload?.();
    expect(await loading).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(
      TELEMETRY_LOAD_FAILED,
      "https://cc.example/widget/chat-telemetry.js",
    );
  });
});
