/**
 * Issue 24, phone: on a 390 × 844 touch screen the demo page fits, the launcher is inside the
 * visible viewport (on a page wider than the screen too), and the open window fills the screen with every control reachable while
 * the page behind it does not scroll.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { screenshot } from "./support.js";
import { violations } from "../support/axe.js";

const PHONE = { width: 390, height: 844 };

let context: BrowserContext;
let page: Page;

const file = useBrowserFile();
beforeEach(async () => {
  context = await file.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/** Whether an element's box lies wholly inside the visible screen. */
async function onScreen(selector: string): Promise<boolean> {
  const box = await page.locator(`chat-widget ${selector}`).first().boundingBox();
  if (!box) return false;
  return (
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= PHONE.width + 0.5 &&
    box.y + box.height <= PHONE.height + 0.5
  );
}

describe("the widget on a phone (issue 24)", () => {
  it("the demo page fits the screen and the launcher is inside it", async () => {
    await page.goto(`${file.centre.url}/`);
    await page.locator("chat-widget button.launcher").waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    expect(await onScreen("button.launcher")).toBe(true);
    await screenshot(page, "phone-button");
  });

  it("on a host page wider than the screen the launcher is still on screen, also after scrolling", async () => {
    await page.route(`${file.centre.url}/wide`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Wide</title></head><body><div style="width:700px;height:3000px">A page wider than the phone</div><script src="/widget/chat-widget.js" defer></script><chat-widget></chat-widget></body></html>`,
      }),
    );
    await page.goto(`${file.centre.url}/wide`);
    await page.locator("chat-widget button.launcher").waitFor();
    // The layout viewport that position: fixed follows is wider and taller than the screen here.
    expect(await page.evaluate(() => innerWidth)).toBeGreaterThan(PHONE.width);
    await expect.poll(() => onScreen("button.launcher")).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 1200));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await expect.poll(() => onScreen("button.launcher")).toBe(true);
  });

  it("the open window fills the screen, its controls are reachable, and the page behind does not scroll", async () => {
    await page.goto(`${file.centre.url}/`);
    await page.locator("chat-widget button.launcher").tap();
    const chatWindow = page.locator("chat-widget .window");
    await chatWindow.waitFor();
    await page.locator("chat-widget button.option").first().waitFor();
    await expect
      .poll(async () => {
        const box = await chatWindow.boundingBox();
        return box && [box.x, box.y, Math.round(box.width), Math.round(box.height)];
      })
      .toEqual([0, 0, PHONE.width, PHONE.height]);
    for (const control of [
      'button[title="Minimise chat window"]',
      'button[title="Close chat window"]',
      "textarea",
      'button[aria-label="Send message"]',
      "button.option",
    ]) {
      expect(await onScreen(control), control).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe("hidden");
    await screenshot(page, "phone-window");

    await page.locator('chat-widget button[title="Minimise chat window"]').tap();
    await page.locator("chat-widget button.launcher").waitFor();
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe("");
  });

  it("in a phone's dark scheme the window still fills the screen and axe finds nothing", async () => {
    const dark = await file.browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      colorScheme: "dark",
    });
    try {
      const phone = await dark.newPage();
      await phone.goto(`${file.centre.url}/`);
      await phone.locator("chat-widget button.launcher").tap();
      const option = phone.locator("chat-widget button.option").first();
      await option.waitFor();
      await expect.poll(() => option.isEnabled(), { timeout: 15_000 }).toBe(true);
      const window = phone.locator("chat-widget .window");
      expect(await window.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        "rgb(31, 31, 35)",
      );
      // Polled: the window grows in over its 0.2 s appear animation.
      await expect
        .poll(async () => {
          const box = await window.boundingBox();
          return box && [Math.round(box.width), Math.round(box.height)];
        })
        .toEqual([PHONE.width, PHONE.height]);
      expect(await violations(phone, "chat-widget")).toEqual([]);
      await screenshot(phone, "phone-dark");
    } finally {
      await dark.close();
    }
  });
});
