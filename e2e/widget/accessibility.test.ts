/**
 * Issue 24 (WCAG 2.2 AA), in Chromium on the demo page. The keyboard path: the launcher takes
 * Enter, opening moves focus into the window, Escape minimises, focus returns to the launcher,
 * with a visible focus ring. Colours: text on the primary colour and primary-coloured text are chosen by
 * contrast for whatever colour the host page sets, in Chromium on the demo page: the default
 * #e56606 (white on it is 3.37:1), a dark blue that keeps white, a yellow that needs dark text.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { contrast, parseColor, readableOn } from "../../packages/widget/src/contrast.js";
import { violations as axeViolations } from "../support/axe.js";
import { advisorTakes, type AdvisorChat } from "./advisor.js";
import { screenshot, setWidgetScript } from "./support.js";

let context: BrowserContext | undefined;

const file = useBrowserFile();
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** The demo page with the host's primary colour set before the widget mounts. */
async function pageWithPrimary(primary: string | null): Promise<Page> {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  if (primary) {
    // Set on the element as the parser inserts it, before the widget's script defines it.
    await page.addInitScript((colour) => {
      new MutationObserver((_records, observer) => {
        const element = document.querySelector<HTMLElement>("chat-widget");
        if (!element) return;
        element.style.setProperty("--chat-widget-primary-color", colour);
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, primary);
  }
  await page.goto(`${file.centre.url}/`);
  return page;
}

/** An element's text colour and the colour it is drawn on. */
async function colours(page: Page, selector: string) {
  const [text, surface] = await page
    .locator(`chat-widget ${selector}`)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      return [style.color, style.backgroundColor];
    });
  return {
    text: text,
    surface: surface,
    ratio: contrast(parseColor(text)!, parseColor(surface)!),
  };
}

async function openChat(page: Page): Promise<void> {
  await page.locator("chat-widget button.launcher").click();
  await page.locator("chat-widget button.option").first().waitFor();
}

/** From the bot's options to an advisor (the demo advisor takes the chat through the agent API). */
async function askForAdvisor(page: Page): Promise<AdvisorChat> {
  const toAdvisor = page.locator("chat-widget button.option", { hasText: "Talk to an advisor" });
  await expect.poll(() => toAdvisor.isEnabled(), { timeout: 15_000 }).toBe(true);
  await toAdvisor.click();
  const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
  const { chat } = JSON.parse(stored ?? "{}") as { chat: { ContactId: string } };
  return advisorTakes(file.centre.url, chat.ContactId);
}

describe("text colours by contrast for the host's primary colour (issue 24)", () => {
  it("the default #e56606: near-black on the launcher and the visitor's bubbles, a darker orange for options", async () => {
    const page = await pageWithPrimary(null);
    const launcher = await colours(page, "button.launcher");
    expect(launcher).toMatchObject({ text: "rgb(26, 26, 26)", surface: "rgb(229, 102, 6)" });
    expect(launcher.ratio).toBeGreaterThanOrEqual(4.5);
    await openChat(page);
    const option = await colours(page, "button.option");
    expect(option.text).toBe("rgb(185, 81, 4)");
    expect(option.ratio).toBeGreaterThanOrEqual(4.5);
    await page.locator("chat-widget button.option", { hasText: "Where is my order?" }).click();
    const bubble = await colours(page, ".message.outgoing");
    expect(bubble.ratio).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ["a dark blue keeps white text, and itself as option text", "#003399", "rgb(255, 255, 255)"],
    [
      "a yellow gets near-black text, and a darker shade as option text",
      "#ffd400",
      "rgb(26, 26, 26)",
    ],
  ])("%s", async (_name, primary, onPrimary) => {
    const page = await pageWithPrimary(primary);
    const launcher = await colours(page, "button.launcher");
    expect(launcher.text).toBe(onPrimary);
    expect(launcher.ratio).toBeGreaterThanOrEqual(4.5);
    await openChat(page);
    const option = await colours(page, "button.option");
    const [r, g, b] = readableOn(parseColor(primary)!);
    expect(option.text).toBe(`rgb(${r}, ${g}, ${b})`);
    expect(option.ratio).toBeGreaterThanOrEqual(4.5);
  });
});

/** What has focus inside the widget's shadow root: its tag, class and text. */
const focusedInWidget = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector("chat-widget")?.shadowRoot?.activeElement;
    return active
      ? `${active.tagName.toLowerCase()}.${active.className}:${active.textContent}`
      : null;
  });

describe("the keyboard path (issue 24)", () => {
  it("Enter on the launcher opens the chat with focus on the bot's first option; Escape minimises and focus returns to the launcher, with a visible ring", async () => {
    const page = await pageWithPrimary(null);
    const launcher = page.locator("chat-widget button.launcher");
    await launcher.waitFor();
    // Reach it by keyboard: Tab until the launcher has focus (the demo page has a few links).
    for (let i = 0; i < 30 && !(await focusedInWidget(page))?.startsWith("button.launcher"); i++) {
      await page.keyboard.press("Tab");
    }
    expect(await focusedInWidget(page)).toMatch(/^button\.launcher/);
    // Focus brings the rest of the widget (issue 61); the focused launcher stays as it is, ring
    // and all, until the window opens (React's launcher hidden beneath it meanwhile).
    await expect
      .poll(() => page.evaluate(() => "__chatWidgetApp" in window), { timeout: 15_000 })
      .toBe(true);
    const focused = page.locator("chat-widget button.launcher:focus");
    expect(await focused.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
    expect(await focusedInWidget(page)).toMatch(/^button\.launcher/);
    await page.keyboard.press("Enter");
    await page.locator("chat-widget button.option").first().waitFor();
    await expect.poll(() => focusedInWidget(page)).toBe("button.option:Where is my order?");
    await page.keyboard.press("Escape");
    await page.locator("chat-widget .window").waitFor({ state: "detached" });
    expect(await focusedInWidget(page)).toMatch(/^button\.launcher/);
    // The chat was kept: Enter reopens it where it was.
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedInWidget(page)).toBe("button.option:Where is my order?");
  });
});

/** A shop page whose snippet is not registered: the launcher's click ends on the error notice. */
async function showErrorNotice(page: Page): Promise<void> {
  await page.route(`${file.centre.url}/unknown-snippet`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><title>Shop</title><body><script src="/widget/chat-widget.js" data-snippet-id="not-registered" defer></script><chat-widget></chat-widget></body></html>`,
    }),
  );
  await page.goto(`${file.centre.url}/unknown-snippet`);
  await page.locator("chat-widget button.launcher").click();
  await page.locator("chat-widget .error-notice").waitFor();
}

/** axe's WCAG violations inside the widget (its open shadow root included). */
const violations = (page: Page) => axeViolations(page, "chat-widget");

describe("axe-core finds no WCAG 2.2 AA violation in any view of the widget (issue 24)", () => {
  it("the button, the bot's options, a conversation with an advisor, the question before ending, and the ended chat with its actions", async () => {
    const page = await pageWithPrimary(null);
    await page.locator("chat-widget button.launcher").waitFor();
    expect(await violations(page)).toEqual([]);

    await openChat(page);
    expect(await violations(page)).toEqual([]);

    const advisor = await askForAdvisor(page);
    const textbox = page.locator("chat-widget textarea");
    await expect.poll(() => textbox.isEnabled(), { timeout: 15_000 }).toBe(true);
    await advisor.send("Hello, how can I help?");
    await textbox.fill("Where is my parcel?");
    await textbox.press("Enter");
    await page.locator("chat-widget .message.incoming", { hasText: "how can I help" }).waitFor();
    await page.locator("chat-widget .message.outgoing", { hasText: "my parcel" }).waitFor();
    expect(await violations(page)).toEqual([]);

    // The question before ending: focus on Cancel.
    await page.locator("chat-widget button[title='Close chat window']").click();
    const cancel = page.locator("chat-widget").getByRole("button", { name: "Cancel" });
    await expect.poll(() => cancel.evaluate((b) => b.matches(":focus"))).toBe(true);
    expect(await violations(page)).toEqual([]);
    await cancel.click();

    await advisor.end();
    await page.locator("chat-widget .event", { hasText: "Chat has ended!" }).waitFor();
    await page.locator("chat-widget").getByRole("button", { name: "Start a new chat" }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it("the error notice", async () => {
    const page = await pageWithPrimary(null);
    await showErrorNotice(page);
    expect(await violations(page)).toEqual([]);
  });
});

describe("axe-core in Arabic, right to left (issue 24)", () => {
  it("the button, the bot's options and a conversation with an advisor", async () => {
    // The demo page itself (a page the test fulfils is not on the local network for Chromium,
    // which then blocks its websocket to 127.0.0.1), its script tag given data-locale="ar" as
    // the parser inserts it.
    context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    await setWidgetScript(page, { dataset: { locale: "ar" } });
    await page.goto(`${file.centre.url}/`);
    await expect
      .poll(() => page.locator("chat-widget .cw").getAttribute("dir"), { timeout: 15_000 })
      .toBe("rtl");
    expect(await violations(page)).toEqual([]);
    await openChat(page);
    expect(await violations(page)).toEqual([]);
    const advisor = await askForAdvisor(page);
    await advisor.send("مرحبا، كيف يمكنني مساعدتك؟");
    await page.locator("chat-widget .message.incoming", { hasText: "مرحبا" }).waitFor();
    expect(await violations(page)).toEqual([]);
  });
});

describe("the dark scheme (issue 24)", () => {
  /** The demo page in a browser whose system prefers `system`, its script tag given `data-color-scheme`. */
  async function demoPage(system: "light" | "dark", scheme?: string): Promise<Page> {
    context = await file.browser.newContext({
      viewport: { width: 1200, height: 800 },
      colorScheme: system,
    });
    const page = await context.newPage();
    if (scheme) await setWidgetScript(page, { dataset: { colorScheme: scheme } });
    await page.goto(`${file.centre.url}/`);
    return page;
  }
  const windowBackground = (page: Page) =>
    page.locator("chat-widget .window").evaluate((el) => getComputedStyle(el).backgroundColor);

  it("follows a system that prefers dark: axe finds nothing in the options, a conversation with markdown, and the ended chat", async () => {
    const page = await demoPage("dark");
    await openChat(page);
    expect(await windowBackground(page)).toBe("rgb(31, 31, 35)");
    const option = await colours(page, "button.option");
    expect(option).toMatchObject({ text: "rgb(229, 102, 6)", surface: "rgb(31, 31, 35)" });
    expect(await violations(page)).toEqual([]);

    const advisor = await askForAdvisor(page);
    const textbox = page.locator("chat-widget textarea");
    await expect.poll(() => textbox.isEnabled(), { timeout: 15_000 }).toBe(true);
    await advisor.send("**Hello**, see `A-10042`:\n\n> Shipped today", "text/markdown");
    await textbox.fill("Thanks!");
    await textbox.press("Enter");
    await page.locator("chat-widget .message.incoming strong", { hasText: "Hello" }).waitFor();
    await page.locator("chat-widget .message.outgoing", { hasText: "Thanks!" }).waitFor();
    expect(await violations(page)).toEqual([]);
    await screenshot(page, "dark");

    // The question before ending, in dark.
    await page.locator("chat-widget button[title='Close chat window']").click();
    const cancel = page.locator("chat-widget").getByRole("button", { name: "Cancel" });
    await cancel.waitFor();
    expect(await violations(page)).toEqual([]);
    await cancel.click();

    await advisor.end();
    await page.locator("chat-widget").getByRole("button", { name: "Start a new chat" }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it("the error notice in dark", async () => {
    context = await file.browser.newContext({
      viewport: { width: 1200, height: 800 },
      colorScheme: "dark",
    });
    const page = await context.newPage();
    await showErrorNotice(page);
    expect(await violations(page)).toEqual([]);
  });

  it('data-color-scheme="light" stays light on a dark system; "dark" is dark on a light one', async () => {
    const light = await demoPage("dark", "light");
    await openChat(light);
    expect(await windowBackground(light)).toBe("rgb(255, 255, 255)");
    await context?.close();
    const dark = await demoPage("light", "dark");
    await openChat(dark);
    expect(await windowBackground(dark)).toBe("rgb(31, 31, 35)");
    expect(await violations(dark)).toEqual([]);
  });
});

describe("prefers-reduced-motion (issue 24)", () => {
  it("the launcher and the window appear without animation when the visitor asks for less motion", async () => {
    const page = await pageWithPrimary(null);
    await page.emulateMedia({ reducedMotion: "reduce" });
    const animation = (selector: string) =>
      page.locator(`chat-widget ${selector}`).evaluate((el) => getComputedStyle(el).animationName);
    await page.locator("chat-widget button.launcher").waitFor();
    expect(await animation("button.launcher")).toBe("none");
    await openChat(page);
    expect(await animation(".window")).toBe("none");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await animation(".window")).toBe("cw-appear");
  });
});

describe("unread while minimised (issue 24)", () => {
  it("the launcher's badge and name count the advisor's messages, 1 then 2, and opening clears them", async () => {
    const page = await pageWithPrimary(null);
    await openChat(page);
    const advisor = await askForAdvisor(page);
    await page
      .locator("chat-widget .event", { hasText: `${advisor.name} has joined the chat` })
      .waitFor();
    await page.keyboard.press("Escape");
    const launcher = page.locator("chat-widget button.launcher");
    const badge = page.locator("chat-widget button.launcher .badge");
    await advisor.send("Are you still there?");
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("1");
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat, 1 unread message");
    await advisor.send("I can help with that.");
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("2");
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat, 2 unread messages");
    expect(await violations(page)).toEqual([]);

    // On the next page the badge is there from the first script's launcher (issue 61), before
    // the rest has loaded, and stays with React's.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/chat-app\.js/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: "domcontentloaded" });
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("2");
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat, 2 unread messages");
    // The painted launcher with its badge and the loading indicator is axe-clean too.
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => "__chatWidgetApp" in window)).toBe(false);
    release();
    await expect
      .poll(() => page.evaluate(() => "__chatWidgetApp" in window), { timeout: 15_000 })
      .toBe(true);
    await page
      .getByRole("status", { name: "Loading" })
      .waitFor({ state: "detached", timeout: 15_000 });
    expect(await badge.textContent()).toBe("2");
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat, 2 unread messages");
    await launcher.click();
    await page.locator("chat-widget .message.incoming", { hasText: "I can help" }).waitFor();
    await page.keyboard.press("Escape");
    expect(await badge.count()).toBe(0);
    expect(await launcher.getAttribute("aria-label")).toBe("Open chat");
  });
});
