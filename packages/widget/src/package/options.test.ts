import { describe, expect, it } from "vitest";
import { settingsFromOptions } from "./options.js";

const PAGE = "https://shop.example/basket?x=1";

describe("the npm package's options → the widget's settings", () => {
  it("Without options the widget talks to the page's origin and takes its fonts and tables from its /widget/, as a script tag served there would", () => {
    expect(settingsFromOptions({}, PAGE)).toMatchObject({
      widgetServiceUrl: "https://shop.example",
      gatewayUrl: "https://shop.example",
      participantEndpoint: "https://shop.example",
      telemetryEndpoint: "https://shop.example/telemetry",
      scriptUrl: "https://shop.example/widget/chat-widget.js",
      telemetry: true,
      colorScheme: "auto",
      unreadSound: false,
      titleFlash: false,
      launcher: "shown",
      locale: undefined,
      nonce: undefined,
    });
  });

  it("server names the contact centre (its origin only); assetsUrl, each endpoint and each setting override as their data- attributes do", () => {
    const settings = settingsFromOptions(
      {
        server: "https://chat.example.com/anything",
        assetsUrl: "https://cdn.example/chat-widget/1.0",
        gatewayUrl: "https://gateway.example",
        telemetry: false,
        unreadSound: true,
        titleFlash: true,
        launcher: "hidden",
        colorScheme: "dark",
        locale: "fr",
        nonce: "abc",
        snippetId: "s-1",
      },
      PAGE,
    );
    expect(settings).toMatchObject({
      widgetServiceUrl: "https://chat.example.com",
      gatewayUrl: "https://gateway.example",
      participantEndpoint: "https://chat.example.com",
      telemetryEndpoint: "https://chat.example.com/telemetry",
      scriptUrl: "https://cdn.example/chat-widget/1.0/chat-widget.js",
      telemetry: false,
      unreadSound: true,
      titleFlash: true,
      launcher: "hidden",
      colorScheme: "dark",
      locale: "fr",
      nonce: "abc",
      snippetId: "s-1",
    });
  });

  it.each([
    [
      "server",
      { server: "chat.example.com" },
      'chat-widget: server must be an http(s) URL, not "chat.example.com"',
    ],
    ["server", { server: "javascript:alert(1)" }, "chat-widget: server must be an http(s) URL"],
    [
      "assetsUrl",
      { assetsUrl: "ftp://cdn.example/" },
      "chat-widget: assetsUrl must be an http(s) URL",
    ],
  ])("A wrong %s is a clear TypeError naming it", (_name, options, message) => {
    expect(() => settingsFromOptions(options, PAGE)).toThrow(TypeError);
    expect(() => settingsFromOptions(options, PAGE)).toThrow(message);
  });
});
