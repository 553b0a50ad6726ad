/**
 * The built widget on the contact centre's demo page, in Chromium: open, the bot's list
 * picker, choosing, an inert HTML message, reload mid-chat, minimise/reopen, close, and the
 * error notice when verify fails.
 */
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { screenshot, setWidgetScript, settled } from "./support.js";

let context: BrowserContext;
let page: Page;

const file = useBrowserFile();
beforeEach(async () => {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

// Playwright's CSS locators pierce the widget's open shadow root.
const launcher = () => page.locator("chat-widget button.launcher");
const chatWindow = () => page.locator("chat-widget .window");
const textbox = () => page.locator("chat-widget textarea");
const outgoing = () => page.locator("chat-widget .message.outgoing");
const option = (title: string) => page.locator("chat-widget button.option", { hasText: title });

async function openChat(): Promise<void> {
  await page.goto(`${file.centre.url}/`);
  await launcher().click();
  await chatWindow().waitFor();
  await option("Where is my order?").waitFor();
  await expect.poll(() => option("Where is my order?").isEnabled()).toBe(true);
}

describe("the widget on the demo page", () => {
  it("registers <chat-widget> with an open shadow root and the button at bottom-right, 75 × 75", async () => {
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    await settled(launcher());
    const box = await launcher().boundingBox();
    expect(box).toEqual({ x: 1200 - 25 - 75, y: 800 - 25 - 75, width: 75, height: 75 });
    const mode = await page.evaluate(() => document.querySelector("chat-widget")?.shadowRoot?.mode);
    expect(mode).toBe("open");
    await screenshot(page, "button");
  });

  it("the rare views (chat-views.js) load once a chat exists (the first opening starts one), not with the page", async () => {
    const views: string[] = [];
    page.on("request", (r) => {
      // Without the version its URL carries (csp.test.ts checks that).
      const url = r.url().split("?")[0]!;
      if (url.endsWith("/chat-views.js")) views.push(url);
    });
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    const registered = () =>
      page.evaluate(() => typeof (window as { __chatWidgetViews?: unknown }).__chatWidgetViews);
    expect([views, await registered()]).toEqual([[], "undefined"]);
    await launcher().click();
    await expect.poll(registered, { timeout: 15_000 }).toBe("object");
    expect(views).toEqual([`${file.centre.url}/widget/chat-views.js`]);
    await chatWindow().waitFor();
  });

  it("opens: the bot greets and offers its list picker; choosing sends the option, shown once, and the bot answers", async () => {
    await openChat();
    await settled(chatWindow());
    const box = await chatWindow().boundingBox();
    expect([box?.width, box?.height]).toEqual([350, 540]);
    await expect
      .poll(() => textbox().getAttribute("placeholder"))
      .toBe("Select an option from above");
    await screenshot(page, "window");
    await option("Where is my order?").click();
    // The order's status, as a Panel with its own options.
    await page.locator("chat-widget .template.Panel", { hasText: "A-10042" }).waitFor();
    expect(await outgoing().allTextContents()).toEqual(["Where is my order?"]);
    expect(await option("Returns and refunds").first().isDisabled()).toBe(true);
  });

  it("a message with <img src=x onerror=...> renders inert", async () => {
    await openChat();
    await option("Talk to an advisor").click();
    await expect.poll(() => textbox().isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.evaluate(() => ((window as unknown as { pwned: number }).pwned = 0));
    const payload = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;
    await textbox().fill(payload);
    await textbox().press("Enter");
    await outgoing().filter({ hasText: "<img src=x" }).waitFor();
    const inShadow = await page.evaluate(() => {
      const root = document.querySelector("chat-widget")!.shadowRoot!;
      return {
        img: root.querySelectorAll("img").length,
        script: root.querySelectorAll("script").length,
      };
    });
    expect(inShadow).toEqual({ img: 0, script: 0 });
    expect(await page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
  });

  it("reload mid-chat keeps the transcript", async () => {
    // Each template comes after the bot's trigger line, which the widget echoes: the menu's,
    // then the returns' quick replies'. Count the echoes stored since the page opened.
    const triggers = ["Please choose one of the options below.", "Here are your options."];
    let echoes = 0;
    page.on("response", (r) => {
      const body = r.request().postData() ?? "";
      if (
        r.ok() &&
        r.url().endsWith("/participant/message") &&
        triggers.some((t) => body.includes(t))
      )
        echoes++;
    });
    await openChat();
    // The bot's turn ends with the quick replies: reload only once their trigger's echo went
    // out and they show, so nothing of this turn arrives after.
    await option("Returns and refunds").click();
    await outgoing().filter({ hasText: "Returns and refunds" }).waitFor();
    await expect.poll(() => echoes, { timeout: 30_000 }).toBe(2);
    await option("No, thanks").waitFor();
    const before = await page.locator("chat-widget .transcript").innerText();
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/participant/message")) sent.push(r.postData() ?? "");
    });
    await page.reload();
    await chatWindow().waitFor();
    await outgoing().filter({ hasText: "Returns and refunds" }).waitFor();
    await expect.poll(() => page.locator("chat-widget .transcript").innerText()).toBe(before);
    expect(await outgoing().count()).toBe(1);
    // History is not replayed as live traffic: no bot message is echoed again, so the bot
    // does not answer anew (it would, were an old echo taken for the visitor's words).
    await page.waitForTimeout(3500);
    expect(sent).toEqual([]);
    expect(await page.locator("chat-widget .transcript").innerText()).toBe(before);
  });

  it("minimise hides the window and keeps the chat; the button reopens it", async () => {
    await openChat();
    await page.locator('chat-widget [title="Minimise chat window"]').click();
    await chatWindow().waitFor({ state: "detached" });
    await launcher().click();
    await chatWindow().waitFor();
    expect(await option("Where is my order?").count()).toBe(1);
  });

  it("close (once confirmed) ends the chat and clears the transcript", async () => {
    await openChat();
    await page.locator('chat-widget [title="Close chat window"]').click();
    await page.locator("chat-widget").getByRole("button", { name: "End chat" }).click();
    await launcher().waitFor();
    await page.locator("chat-widget .loading-indicator").waitFor({ state: "detached" });
    expect(await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"))).toBeNull();
    await launcher().click();
    await chatWindow().waitFor();
    await option("Where is my order?").waitFor();
    expect(await outgoing().count()).toBe(0);
  });

  it("verify failure shows 'Something went wrong. Try again later.' for 5 s, then the button returns", async () => {
    await page.route(`${file.centre.url}/unknown-snippet`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><body><script src="/widget/chat-widget.js" data-snippet-id="not-registered" defer></script><chat-widget></chat-widget></body>`,
      }),
    );
    await page.goto(`${file.centre.url}/unknown-snippet`);
    await launcher().waitFor();
    // How long the notice is in the DOM, timed in the page: the test's own delays don't count.
    await page.evaluate(() => {
      const root = document.querySelector("chat-widget")!.shadowRoot!;
      const times: { shown?: number; gone?: number } = {};
      Reflect.set(window, "noticeTimes", times);
      new MutationObserver(() => {
        const present = root.querySelector(".error-notice") !== null;
        if (present) times.shown ??= performance.now();
        else if (times.shown !== undefined) times.gone ??= performance.now();
      }).observe(root, { childList: true, subtree: true });
    });
    await launcher().click();
    const notice = page.locator("chat-widget .error-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toBe("Something went wrong. Try again later.");
    await screenshot(page, "error-notice");
    await notice.waitFor({ state: "detached", timeout: 10_000 });
    const { shown, gone } = await page.evaluate(
      () => Reflect.get(window, "noticeTimes") as { shown: number; gone: number },
    );
    expect(gone - shown).toBeGreaterThan(4000);
    await launcher().waitFor();
  });
});

describe("the visitor's language (issue 24)", () => {
  const table = (code: string) =>
    JSON.parse(
      readFileSync(
        new URL(`../../packages/widget/src/locales/${code}.json`, import.meta.url),
        "utf8",
      ),
    ) as Record<string, string>;
  /**
   * The demo page (a page the test fulfils is not on the local network for Chromium, which then
   * blocks its websocket to 127.0.0.1), changed as the parser inserts the widget's script tag.
   */
  const demoPageWith = async ({ locale, lang }: { locale?: string; lang?: string }) => {
    await setWidgetScript(page, { dataset: locale ? { locale } : {}, lang });
    await page.goto(`${file.centre.url}/`);
  };

  it("data-locale='ar': the widget speaks Arabic and is laid out right to left; an Arabic message reads right to left", async () => {
    const ar = table("ar");
    await demoPageWith({ locale: "ar" });
    await expect
      .poll(() => launcher().getAttribute("aria-label"), { timeout: 15_000 })
      .toBe(ar.OPEN);
    await launcher().click();
    await chatWindow().waitFor();
    const root = page.locator("chat-widget .cw");
    expect(await root.getAttribute("dir")).toBe("rtl");
    expect(await root.getAttribute("lang")).toBe("ar");
    // The header mirrored: close (last in the markup) on the left, minimise beside it.
    const close = await page.locator(`chat-widget button[title="${ar.CLOSE}"]`).boundingBox();
    const minimise = await page.locator(`chat-widget button[title="${ar.MINIMISE}"]`).boundingBox();
    expect(close!.x).toBeLessThan(minimise!.x);

    await option("Talk to an advisor").click();
    await expect.poll(() => textbox().isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await textbox().getAttribute("placeholder")).toBe(ar.PLACEHOLDER_ACTIVE);
    await textbox().fill("مرحبا، أين طلبي؟");
    await textbox().press("Enter");
    const mine = outgoing().filter({ hasText: "مرحبا" });
    await mine.waitFor();
    expect(await mine.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    // The visitor's own messages sit on the left in a right-to-left window.
    const bubble = (await mine.boundingBox())!;
    const window = (await chatWindow().boundingBox())!;
    expect(bubble.x - window.x).toBeLessThan(window.x + window.width - (bubble.x + bubble.width));
    await screenshot(page, "arabic");
  });

  it("without data-locale the page's lang chooses: <html lang='he'> gives Hebrew, right to left", async () => {
    const he = table("he");
    await demoPageWith({ lang: "he" });
    await expect
      .poll(() => launcher().getAttribute("aria-label"), { timeout: 15_000 })
      .toBe(he.OPEN);
    expect(await page.locator("chat-widget .cw").getAttribute("dir")).toBe("rtl");
  });
});
