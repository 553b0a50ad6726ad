/**
 * Issue 61, the widget costs a page nothing until the visitor reaches for it, in Chromium on the
 * demo page: the first script paints the launcher (accessible, axe-clean) and fetches nothing
 * more; React, the client and the window (chat-app.js) come on intent — pointer over the
 * launcher, focus on it, a click, the host page's open() — or at once for a chat this tab
 * holds. Where it matters the test holds chat-app.js back, so the order is certain.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { signJwt } from "../../packages/server/src/gateway/jwt.js";
import { DEMO_JWT_SECRET } from "../../packages/server/src/demo/demo-jwt.js";
import { settled } from "./support.js";

let context: BrowserContext;
let page: Page;
/** The path of every request the page made, in order. */
let requested: string[];
/** The path of every websocket the page opened. */
let sockets: string[];

const file = useBrowserFile();
beforeEach(async () => {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
  requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  sockets = [];
  page.on("websocket", (socket) => sockets.push(new URL(socket.url()).pathname));
});
afterEach(async () => {
  await context?.close();
});

const launcher = () => page.locator("chat-widget button.launcher");
const chatWindow = () => page.locator("chat-widget .window");
const loading = () => page.getByRole("status", { name: "Loading" });
const option = (title: string) => page.locator("chat-widget button.option", { hasText: title });
const appRequested = () => requested.some((path) => path.endsWith("/chat-app.js"));
const appLoaded = () => page.evaluate(() => "__chatWidgetApp" in window);

/** Hold chat-app.js back until the returned function is called. */
async function holdApp(): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/chat-app\.js/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Keep a reference to the painted launcher, to tell it from React's. */
const markPainted = () =>
  page.evaluate(() => {
    const root = document.querySelector("chat-widget")!.shadowRoot!;
    (window as unknown as { painted: Element }).painted = root.querySelector("button.launcher")!;
  });
const paintedGone = () =>
  page.evaluate(() => !(window as unknown as { painted: Element }).painted.isConnected);
/** The element focused inside the widget's shadow root, as "tag.class". */
const focusedInWidget = () =>
  page.evaluate(() => {
    const host = document.querySelector("chat-widget")!;
    const active = host.shadowRoot!.activeElement;
    return document.activeElement === host && active
      ? `${active.tagName.toLowerCase()}.${active.className}`
      : null;
  });

describe("the launcher before the rest (issue 61)", () => {
  it("is painted by the first script, accessible and axe-clean, with nothing else fetched from the centre until the pointer comes over it", async () => {
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    expect(await launcher().getAttribute("aria-label")).toBe("Open chat");
    await settled(launcher());
    const box = await launcher().boundingBox();
    expect(box).toEqual({ x: 1200 - 25 - 75, y: 800 - 25 - 75, width: 75, height: 75 });
    expect(await violations(page, "chat-widget")).toEqual([]);
    expect(await appLoaded()).toBe(false);
    // The page itself, then only the first script: no fonts, locale, telemetry or verify.
    expect(requested.filter((path) => path !== "/")).toEqual(["/widget/chat-widget.js"]);

    await launcher().hover();
    await expect.poll(appRequested, { timeout: 15_000 }).toBe(true);
    await expect.poll(appLoaded, { timeout: 15_000 }).toBe(true);
    // Reaching for it is not opening it.
    expect(await chatWindow().count()).toBe(0);
    await expect.poll(() => launcher().count(), { timeout: 15_000 }).toBe(1);
  });

  it("the visitor's locale table is asked for with the rest, once, so the window opens in their language", async () => {
    const release = await holdApp();
    const url = `${file.centre.url}/shop-in-arabic`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="ar" dir="rtl"><head><title>متجر</title></head><body><h1>متجر</h1>
<script src="${file.centre.url}/widget/chat-widget.js" defer></script>
<chat-widget></chat-widget></body></html>`,
      }),
    );
    await page.goto(url);
    expect(requested.some((path) => path.endsWith("/ar.json"))).toBe(false);
    await launcher().click();
    // Asked for while chat-app.js is still held back.
    await expect
      .poll(() => requested.some((path) => path.endsWith("/locales/ar.json")), { timeout: 15_000 })
      .toBe(true);
    release();
    await chatWindow().waitFor({ timeout: 15_000 });
    expect(await page.locator("chat-widget .cw").getAttribute("dir")).toBe("rtl");
    expect(requested.filter((path) => path.endsWith("/locales/ar.json"))).toHaveLength(1);
  });

  it('with data-preload="idle" the rest loads once the page is idle, with no intent, and starts no chat', async () => {
    const url = `${file.centre.url}/shop-preloading`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<script src="${file.centre.url}/widget/chat-widget.js" data-preload="idle" defer></script>
<chat-widget></chat-widget></body></html>`,
      }),
    );
    await page.goto(url);
    await expect.poll(appLoaded, { timeout: 15_000 }).toBe(true);
    // React's launcher took the painted one's place; nothing was opened or started.
    await expect.poll(() => launcher().getAttribute("class"), { timeout: 15_000 }).toBe("launcher");
    expect(await launcher().count()).toBe(1);
    expect(await chatWindow().count()).toBe(0);
    expect(requested).not.toContain("/gateway/start-chat");
    await launcher().click();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
  });

  it("a click before the rest arrives shows the loading indicator, then the window; the chat then resumes on the next page without intent", async () => {
    const release = await holdApp();
    await page.goto(`${file.centre.url}/`);
    await launcher().click();
    await loading().waitFor({ timeout: 15_000 });
    expect(await chatWindow().count()).toBe(0);
    // The chat starts while the app downloads: verify, start-chat, the participant's
    // connection and its websocket are not waiting for it.
    await expect
      .poll(() => requested.includes("/participant/connection"), { timeout: 15_000 })
      .toBe(true);
    expect(requested.indexOf("/gateway/start-chat")).toBeGreaterThan(-1);
    await expect.poll(() => sockets, { timeout: 15_000 }).toEqual(["/participant/ws"]);
    // The rare views (the bot's options among them) download beside the app.
    expect(requested).toContain("/widget/chat-views.js");
    expect(await appLoaded()).toBe(false);
    release();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
    await expect.poll(() => loading().count(), { timeout: 15_000 }).toBe(0);
    // One chat: the app took the one begun, it started none of its own; its client took the
    // connection asked for and its socket, it asked for none of its own.
    expect(requested.filter((path) => path === "/gateway/start-chat")).toHaveLength(1);
    expect(requested.filter((path) => path === "/participant/connection")).toHaveLength(1);
    expect(sockets).toEqual(["/participant/ws"]);
    expect(requested.filter((path) => path === "/widget/chat-views.js")).toHaveLength(1);

    // The visitor goes on to another page of the shop: the app loads at once, without intent;
    // until it is there the launcher shows with the loading indicator, as while a chat resumes.
    await page.unroute(/\/chat-app\.js/);
    const releaseAgain = await holdApp();
    requested = [];
    // Not waiting for the load event, which the held script holds back.
    await page.reload({ waitUntil: "domcontentloaded" });
    await expect.poll(appRequested, { timeout: 15_000 }).toBe(true);
    await launcher().waitFor({ timeout: 15_000 });
    await loading().waitFor({ timeout: 15_000 });
    expect(await appLoaded()).toBe(false);
    releaseAgain();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
    expect(await loading().count()).toBe(0);
  });

  it("a chat begun for a jwt the page then changes is ended on the centre; the app starts one for the new jwt", async () => {
    const release = await holdApp();
    const disconnects: number[] = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname === "/participant/disconnect") disconnects.push(r.status());
    });
    await page.goto(`${file.centre.url}/`);
    await launcher().click();
    await expect
      .poll(() => requested.includes("/participant/connection"), { timeout: 15_000 })
      .toBe(true);
    // Another visitor signs in on this page before the rest arrives.
    const bob = signJwt({ sub: "bob", attributes: { customerName: "Bob" } }, DEMO_JWT_SECRET);
    await page.evaluate(
      (jwt) => document.querySelector("chat-widget")!.setAttribute("jwt", jwt),
      bob,
    );
    release();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
    expect(requested.filter((path) => path === "/gateway/start-chat")).toHaveLength(2);
    await expect.poll(() => disconnects, { timeout: 15_000 }).toEqual([200]);
  });

  it("focus on the launcher keeps the painted one as it is while React arrives, one button for a screen reader, ring and all; Enter opens the window", async () => {
    const release = await holdApp();
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    await markPainted();
    // By keyboard: Tab past the demo page's links.
    for (let i = 0; i < 30 && !(await focusedInWidget())?.startsWith("button.launcher"); i++)
      await page.keyboard.press("Tab");
    expect(await focusedInWidget()).toBe("button.launcher appear");
    const ring = () =>
      page
        .evaluate(() => getComputedStyle((window as unknown as { painted: Element }).painted))
        .then((style) => style.outlineStyle);
    expect(await ring()).toBe("solid");
    await expect.poll(appRequested, { timeout: 15_000 }).toBe(true);
    release();
    // React's launcher is there, hidden beneath the focused painted one.
    await expect.poll(() => launcher().count(), { timeout: 15_000 }).toBe(2);
    expect(await paintedGone()).toBe(false);
    expect(await focusedInWidget()).toBe("button.launcher appear");
    expect(await ring()).toBe("solid");
    expect(await page.getByRole("button", { name: "Open chat" }).count()).toBe(1);
    await page.keyboard.press("Enter");
    await option("Where is my order?").waitFor({ timeout: 15_000 });
    expect(await paintedGone()).toBe(true);
    expect(await focusedInWidget()).toBe("button.option");
  });

  it("focus leaving the painted launcher once React is there: React's launcher in its place, not appearing a second time", async () => {
    const release = await holdApp();
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    await markPainted();
    await launcher().focus();
    await expect.poll(appRequested, { timeout: 15_000 }).toBe(true);
    release();
    await expect.poll(() => launcher().count(), { timeout: 15_000 }).toBe(2);
    await page.keyboard.press("Shift+Tab");
    await expect.poll(paintedGone, { timeout: 15_000 }).toBe(true);
    expect(await launcher().count()).toBe(1);
    expect(await launcher().getAttribute("class")).toBe("launcher");
    expect(await launcher().evaluate((el) => getComputedStyle(el).visibility)).toBe("visible");
    expect(await page.getByRole("button", { name: "Open chat" }).count()).toBe(1);
  });

  it("the rest refused (offline, blocked): a click shows the error notice for 5 s, then the launcher, whose next click opens the chat", async () => {
    await page.route(/\/chat-app\.js/, (route) => route.abort());
    await page.goto(`${file.centre.url}/`);
    await launcher().click();
    const notice = page.getByRole("alert");
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toBe("Something went wrong. Try again later.");
    await notice.waitFor({ state: "detached", timeout: 15_000 });
    await page.unroute(/\/chat-app\.js/);
    await launcher().click();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
  });

  it("the host page's open() before the rest arrives shows the loading indicator, then the window", async () => {
    const release = await holdApp();
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    await page.evaluate(() => document.querySelector("chat-widget")!.open());
    await loading().waitFor({ timeout: 15_000 });
    release();
    await option("Where is my order?").waitFor({ timeout: 15_000 });
    // minimise() before nothing was loaded had nothing to do; now it hides the window.
    await page.evaluate(() => document.querySelector("chat-widget")!.minimise());
    await chatWindow().waitFor({ state: "detached", timeout: 15_000 });
  });
});
