import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, listen, type BuiltApp } from "../app.js";
import { loadConfig } from "../config.js";
import { registerFeatures } from "../features.js";
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

describe("the headers of the agent console on a real server", () => {
  let built: BuiltApp;
  let stopFeatures: (() => Promise<void>) | undefined;
  let consoleDist: string;
  let url: string;
  beforeAll(async () => {
    // The console may not be built in a test run: serve a stub build instead.
    consoleDist = await mkdtemp(join(tmpdir(), "agent-console-dist-"));
    await writeFile(join(consoleDist, "index.html"), "<!doctype html><title>console stub</title>");
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory",
      LOG_LEVEL: "silent",
    });
    built = await buildApp(config, { features: false });
    stopFeatures = await registerFeatures(built.app, built.deps, { agentConsoleDist: consoleDist });
    url = await listen(built);
  }, 120_000);
  afterAll(async () => {
    await stopFeatures?.();
    await built?.close();
    if (consoleDist) await rm(consoleDist, { recursive: true, force: true });
  });

  it("GET /agent/ may never be framed (CSP frame-ancestors 'none', X-Frame-Options DENY) and is nosniff", async () => {
    const page = await fetch(`${url}/agent/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("console stub");
    const csp = page.headers.get("content-security-policy");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toBe(contentSecurityPolicy("/agent/", url));
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
