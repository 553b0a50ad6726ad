import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { gunzipSync, gzipSync } from "node:zlib";
import { join } from "node:path";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { decodeJwt, jwtAttributes, verifyJwt } from "../gateway/jwt.js";
import { DEMO_JWT_SECRET, DEMO_ORDER_NUMBER, demoJwt } from "./demo-jwt.js";
import { demoPage, WIDGET_SCRIPT_PATH } from "./page.js";
import { serveBuild } from "./static.js";

const NOW = Date.UTC(2026, 0, 1);

describe("demo shop page", () => {
  it("embeds the widget as a customer's website would: one script tag and <chat-widget jwt>", () => {
    const jwt = demoJwt(undefined, NOW);
    const html = demoPage(jwt, DEMO_ORDER_NUMBER);
    expect(html).toContain(`<script src="${WIDGET_SCRIPT_PATH}" defer></script>`);
    expect(html).toContain(`<chat-widget jwt="${jwt}"></chat-widget>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain("A-10042");
  });

  it("the demo jwt carries the order number in its attributes claim, signed with the demo or configured secret", () => {
    const demo = demoJwt(undefined, NOW);
    expect(jwtAttributes(decodeJwt(demo)).orderNumber).toBe("A-10042");
    expect(verifyJwt(demo, DEMO_JWT_SECRET, NOW).sub).toBe("demo-visitor");
    expect(() => verifyJwt(demoJwt("shop-secret", NOW), "shop-secret", NOW)).not.toThrow();
  });
});

describe("built apps", () => {
  async function appWith(widgetDir: string, consoleDir: string) {
    const app = Fastify();
    await serveBuild(app, {
      prefix: "/widget/",
      root: widgetDir,
      what: "The chat widget",
      spa: false,
      anyOrigin: true,
    });
    await serveBuild(app, {
      prefix: "/agent/",
      root: consoleDir,
      what: "The agent console",
      spa: true,
    });
    return app;
  }

  it("serve the widget build at /widget/ and the agent console at /agent/ with a single-page fallback", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dist-"));
    mkdirSync(join(dir, "widget/fonts"), { recursive: true });
    mkdirSync(join(dir, "console/assets"), { recursive: true });
    writeFileSync(join(dir, "widget/chat-widget.js"), "console.log('widget')");
    writeFileSync(join(dir, "widget/fonts/poppins.woff2"), "font");
    mkdirSync(join(dir, "widget/locales"));
    writeFileSync(join(dir, "widget/locales/de.json"), '{"LANG":"de"}');
    writeFileSync(join(dir, "console/index.html"), "<html>console</html>");
    writeFileSync(join(dir, "console/assets/app.js"), "app");
    const app = await appWith(join(dir, "widget"), join(dir, "console"));
    const script = await app.inject("/widget/chat-widget.js");
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toContain("javascript");
    const font = await app.inject("/widget/fonts/poppins.woff2");
    expect(font.statusCode).toBe(200);
    // Fonts and locales are fetched with CORS from the shop's pages: any origin may read them.
    expect(font.headers["access-control-allow-origin"]).toBe("*");
    const locale = await app.inject("/widget/locales/de.json");
    expect(locale.statusCode).toBe(200);
    expect(locale.headers["content-type"]).toContain("application/json");
    expect(locale.headers["access-control-allow-origin"]).toBe("*");
    expect((await app.inject("/agent/assets/app.js")).headers["access-control-allow-origin"]).toBe(
      undefined,
    );
    expect((await app.inject("/agent/")).body).toBe("<html>console</html>");
    expect((await app.inject("/agent/chats/123")).body).toBe("<html>console</html>");
    expect((await app.inject("/agent/assets/app.js")).body).toBe("app");
    expect((await app.inject("/agent/assets/missing.js")).statusCode).toBe(404);
    const bare = await app.inject("/agent");
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe("/agent/");
    await app.close();
  });

  it("send the precompressed widget script to browsers that accept gzip, the plain one otherwise", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dist-"));
    mkdirSync(join(dir, "widget"));
    const source = "console.log('widget');".repeat(50);
    writeFileSync(join(dir, "widget/chat-widget.js"), source);
    writeFileSync(join(dir, "widget/chat-widget.js.gz"), gzipSync(source));
    const app = await appWith(join(dir, "widget"), join(dir, "console"));
    const zipped = await app.inject({
      url: "/widget/chat-widget.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(source);
    const plain = await app.inject({
      url: "/widget/chat-widget.js",
      headers: { "accept-encoding": "identity" },
    });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(source);
    await app.close();
  });

  it("a missing build answers 503 with a plain-text page saying to run npm run build", async () => {
    const app = await appWith("/nonexistent/widget", "/nonexistent/console");
    for (const url of ["/widget/chat-widget.js", "/agent/", "/agent", "/agent/x"]) {
      const r = await app.inject(url);
      expect(r.statusCode).toBe(503);
      expect(r.headers["content-type"]).toContain("text/plain");
      expect(r.body).toContain("npm run build");
    }
    await app.close();
  });
});
