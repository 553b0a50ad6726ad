import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, listen, type BuiltApp } from "../app.js";
import { loadConfig } from "../config.js";
import { contentSecurityPolicy } from "./security-headers.js";

describe("the content security policy", () => {
  it("the console: its own scripts and styles only, its websocket origin, never framed", () => {
    const csp = contentSecurityPolicy("/agent/", "https://chat.example.com");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self' wss://chat.example.com;");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
  });

  it("the demo page: inline styles (its own and the widget's shadow root), framed only by itself", () => {
    const csp = contentSecurityPolicy("/", "http://127.0.0.1:8080");
    expect(csp).toContain("style-src 'self' 'unsafe-inline';");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:8080;");
    expect(csp).toContain("frame-ancestors 'self'");
  });
});

describe("the headers a real server sends", () => {
  let built: BuiltApp;
  let url: string;
  beforeAll(async () => {
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory",
      LOG_LEVEL: "silent",
    });
    built = await buildApp(config, { features: true });
    url = await listen(built);
  }, 120_000);
  afterAll(() => built?.close());

  it("every response is nosniff; the demo page carries its CSP; the widget script stays loadable anywhere", async () => {
    const page = await fetch(`${url}/`);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toBe(contentSecurityPolicy("/", url));
    const api = await fetch(`${url}/healthz`);
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toBeNull();
    const script = await fetch(`${url}/widget/chat-widget.js`);
    expect(script.headers.get("cross-origin-resource-policy")).toBeNull();
  });
});
