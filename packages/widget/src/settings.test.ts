import { describe, expect, it } from "vitest";
import { joinUrl, readSettings } from "./settings.js";

describe("deployment settings from the script tag's data- attributes", () => {
  it("default to the local contact centre on the script's origin (telemetry at <origin>/telemetry), its demo ids, and region eu-west-2", () => {
    const settings = readSettings(
      { src: "https://shop.example:8443/widget/chat-widget.js", dataset: {} },
      "https://page.example/",
    );
    expect(settings).toEqual({
      widgetServiceUrl: "https://shop.example:8443",
      gatewayUrl: "https://shop.example:8443",
      snippetId: "demo-snippet",
      instanceId: "demo-instance",
      contactFlowId: "default-flow",
      region: "eu-west-2",
      participantEndpoint: "https://shop.example:8443",
      telemetryEndpoint: "https://shop.example:8443/telemetry",
      telemetry: true,
      scriptUrl: "https://shop.example:8443/widget/chat-widget.js",
      colorScheme: "auto",
      unreadSound: false,
      titleFlash: false,
      launcher: "shown",
      persistentChat: false,
      preload: "intent",
    });
  });

  it('data-color-scheme: "light" or "dark" in any case; anything else follows the system ("auto")', () => {
    const scheme = (colorScheme?: string) =>
      readSettings({ src: "https://cdn.example/w.js", dataset: { colorScheme } }, "https://p/")
        .colorScheme;
    expect([scheme("dark"), scheme(" Light "), scheme("DARK")]).toEqual(["dark", "light", "dark"]);
    expect([scheme(), scheme(""), scheme("blue"), scheme("auto")]).toEqual([
      "auto",
      "auto",
      "auto",
      "auto",
    ]);
  });

  it('data-unread-sound and data-title-flash: "on" (any case) turns each on; off otherwise', () => {
    const read = (dataset: Record<string, string>) =>
      readSettings({ src: "https://cdn.example/w.js", dataset }, "https://p/");
    expect(read({ unreadSound: "on", titleFlash: "ON" })).toMatchObject({
      unreadSound: true,
      titleFlash: true,
    });
    expect(read({ unreadSound: "yes", titleFlash: "" })).toMatchObject({
      unreadSound: false,
      titleFlash: false,
    });
  });

  it('data-preload: "idle" (any case) loads the chat once the page is idle; anything else waits for intent', () => {
    const preload = (value?: string) =>
      readSettings({ src: "https://cdn.example/w.js", dataset: { preload: value } }, "https://p/")
        .preload;
    expect([preload("idle"), preload(" IDLE ")]).toEqual(["idle", "idle"]);
    expect([preload(), preload(""), preload("eager"), preload("intent")]).toEqual([
      "intent",
      "intent",
      "intent",
      "intent",
    ]);
  });

  it("keeps the script tag's CSP nonce for what the widget adds to the page", () => {
    const read = (nonce?: string) =>
      readSettings({ src: "https://cdn.example/w.js", dataset: {}, nonce }, "https://p/").nonce;
    expect([read("r4nd0m"), read(""), read()]).toEqual(["r4nd0m", undefined, undefined]);
  });

  it("data- attributes override each setting", () => {
    const settings = readSettings(
      {
        src: "https://cdn.example/chat-widget.js",
        dataset: {
          widgetServiceUrl: "https://ws.example/prod",
          gatewayUrl: "https://gw.example",
          snippetId: "snip",
          instanceId: "inst",
          contactFlowId: "flow",
          region: "us-west-2",
          participantEndpoint: "https://participant.example",
          telemetryEndpoint: "https://telemetry.example",
        },
      },
      "https://page.example/",
    );
    expect(settings).toMatchObject({
      widgetServiceUrl: "https://ws.example/prod",
      gatewayUrl: "https://gw.example",
      snippetId: "snip",
      instanceId: "inst",
      contactFlowId: "flow",
      region: "us-west-2",
      participantEndpoint: "https://participant.example",
      telemetryEndpoint: "https://telemetry.example",
    });
  });

  it('data-telemetry="off" turns telemetry off; any other value leaves it on', () => {
    const read = (telemetry: string) =>
      readSettings(
        { src: "https://cdn.example/chat-widget.js", dataset: { telemetry } },
        "https://page.example/",
      ).telemetry;
    expect(read("off")).toBe(false);
    expect(read("OFF")).toBe(false);
    expect(read("on")).toBe(true);
    expect(read("")).toBe(true);
  });

  it("without a script (inline or module), the page's origin is used", () => {
    expect(readSettings(null, "http://127.0.0.1:8080/shop").gatewayUrl).toBe(
      "http://127.0.0.1:8080",
    );
  });

  it("paths join under a base URL with a prefix", () => {
    expect(joinUrl("https://ws.example/prod/", "/widget-service/verify")).toBe(
      "https://ws.example/prod/widget-service/verify",
    );
  });
});
