/**
 * Issue 24 (its chunks) and issue 25 (strict CSP): the widget on a shop page of another origin
 * whose policy allows scripts and styles only from itself or by nonce. The widget's script tag
 * carries the nonce; everything the widget adds (its styles, the font faces, chat-views.js,
 * chat-telemetry.js) carries it too, so nothing is refused.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { STARTUP_MS, serveShop } from "./support.js";
import type { Shop } from "./support.js";
import { WIDGET_BUILD } from "../support/contact-centre.js";

const NONCE = "c3RyaWN0LWNzcC10ZXN0";
const WIDGET_DIST = dirname(WIDGET_BUILD.file);

let context: BrowserContext | undefined;
let shop: Shop | undefined;

/** The host page's policy: scripts and styles from itself or by nonce; the widget's origin for the rest. */
const policy = (widget: string) =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${NONCE}'`,
    `style-src 'self' 'nonce-${NONCE}'`,
    `connect-src 'self' ${widget} ${widget.replace(/^http/, "ws")}`,
    `font-src ${widget}`,
    "img-src 'self' data: blob:",
    "worker-src 'self'",
  ].join("; ");

const file = useBrowserFile();
beforeAll(async () => {
  shop = await serveShop((_request, response) => {
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policy(file.centre.url),
    });
    response.end(`<!doctype html><html lang="en"><head><title>Shop with a strict policy</title></head>
<body><h1>Shop</h1>
<script src="${file.centre.url}/widget/chat-widget.js" nonce="${NONCE}" defer></script>
<chat-widget></chat-widget></body></html>`);
  });
}, STARTUP_MS);
afterAll(async () => {
  await shop?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

describe("a host page with a strict Content-Security-Policy (nonce, no unsafe-inline)", () => {
  it("the widget is styled, its font, rare views and telemetry load, and the page refuses nothing of the widget's", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.addInitScript(() => {
      const refused: string[] = [];
      (window as unknown as { refused: string[] }).refused = refused;
      document.addEventListener("securitypolicyviolation", (e) =>
        refused.push(`${e.effectiveDirective} ${e.blockedURI}`),
      );
    });
    await page.goto(shop!.url);
    const launcher = page.locator("chat-widget button.launcher");
    await launcher.waitFor();
    // Styled: the stylesheet in the shadow root applied.
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      "rgb(229, 102, 6)",
    );
    // Nothing warmed before the visitor reaches for the launcher (issue 61); then the centre's
    // origin, preconnected on the hover the click begins with.
    const preconnects = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('link[rel="preconnect"]')].map((l) => l.getAttribute("href")),
      );
    expect(await preconnects()).toEqual([]);
    await launcher.click();
    expect(await preconnects()).toEqual([new URL(file.centre.url).origin]);
    // The bot's greeting is markdown: rendered by chat-views.js.
    await page.locator("chat-widget .message.incoming strong", { hasText: "Demo Shop" }).waitFor({
      timeout: 15_000,
    });
    await page.locator("chat-widget button.option").first().waitFor();
    const loaded = await page.evaluate(async () => {
      await document.fonts.load('500 14px "Poppins"');
      const w = window as unknown as Record<string, unknown>;
      return {
        font: document.fonts.check('500 14px "Poppins"'),
        views: typeof w.__chatWidgetViews,
      };
    });
    expect(loaded).toEqual({ font: true, views: "object" });
    await expect
      .poll(
        () =>
          page.evaluate(
            () => typeof (window as { __chatWidgetTelemetry?: unknown }).__chatWidgetTelemetry,
          ),
        {
          timeout: 15_000,
        },
      )
      .toBe("object");
    expect(await page.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual(
      [],
    );
    // The later scripts' URLs carry their content's hash, so no cache pairs builds.
    for (const script of ["chat-views.js", "chat-telemetry.js"]) {
      const hash = createHash("sha256")
        .update(readFileSync(join(WIDGET_DIST, script)))
        .digest("hex")
        .slice(0, 12);
      expect(requested).toContain(`${file.centre.url}/widget/${script}?v=${hash}`);
    }
  });
});
