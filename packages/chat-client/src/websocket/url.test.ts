import { describe, expect, it } from "vitest";
import { validateTransport } from "./transport.js";
import { isAllowedWebSocketUrl } from "./url.js";

describe("websocket URL validation", () => {
  it.each([
    "wss://example.transport.connect.eu-west-2.amazonaws.com/?X-Amz-Signature=abc",
    "wss://chat.example.com:8443/ws?token=t",
    "ws://127.0.0.1:8080/ws?token=t",
    "ws://localhost:8080/ws",
    "ws://[::1]:8080/ws",
  ])("Websocket URL must start with wss:// (ws:// only to a loopback host): accepts %s", (url) => {
    expect(isAllowedWebSocketUrl(url)).toBe(true);
  });

  it.each([
    "ws://example.com/ws",
    "ws://192.168.1.10:8080/ws",
    "ws://127.0.0.2:8080/ws",
    "ws://localhost.example.com/ws",
    "http://127.0.0.1:8080/ws",
    "https://example.com/ws",
    " wss://example.com/ws",
    "wss//example.com",
    "not a url",
    "",
  ])("Websocket URL must start with wss:// (ws:// only to a loopback host): refuses %j", (url) => {
    expect(isAllowedWebSocketUrl(url)).toBe(false);
  });

  it("refuses a URL that is not a string", () => {
    expect(isAllowedWebSocketUrl(undefined)).toBe(false);
    expect(isAllowedWebSocketUrl(42)).toBe(false);
  });
});

describe("transport validation", () => {
  it("Transport lifetime must be at least 300 s, otherwise the configuration is invalid", () => {
    const url = "wss://example.com/ws";
    expect(validateTransport({ url, transportLifeTimeInSeconds: 300 })).toEqual({
      url,
      lifetimeMs: 300_000,
    });
    expect(validateTransport({ url, transportLifeTimeInSeconds: 299 })).toMatchObject({
      code: "INVALID_LIFETIME",
    });
    expect(
      validateTransport({ url } as unknown as Parameters<typeof validateTransport>[0]),
    ).toMatchObject({ code: "INVALID_LIFETIME" });
  });

  it("a missing URL or a URL that is not allowed is an invalid configuration", () => {
    expect(validateTransport(undefined)).toMatchObject({ code: "MISSING_URL" });
    expect(validateTransport({ url: "", transportLifeTimeInSeconds: 3540 })).toMatchObject({
      code: "MISSING_URL",
    });
    expect(
      validateTransport({ url: "ws://example.com/ws", transportLifeTimeInSeconds: 3540 }),
    ).toMatchObject({ code: "INVALID_URL" });
  });
});
