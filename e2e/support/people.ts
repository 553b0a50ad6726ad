/**
 * The two people of an end-to-end chat, each in their own browser context: a visitor on the
 * demo page (the real widget) who asks the bot for an advisor, and the demo advisor in the real
 * agent console.
 */
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import type { BrowserFile } from "./browser-file.js";

export const widgetBox = (page: Page) => page.locator("chat-widget textarea");
export const consoleBox = (page: Page) => page.getByRole("textbox", { name: "Message" });
export const consoleTranscript = (page: Page) => page.locator(".chat-view .transcript");

export class People {
  readonly contexts: BrowserContext[] = [];

  /** The file's contact centre and Chromium (browser-file.ts), read when a person appears. */
  constructor(private readonly file: BrowserFile<{ url: string }>) {}

  async newPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await this.file.browser.newContext({
      viewport: { width: 1280, height: 860 },
      ...options,
    });
    this.contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error("page error:", error.message));
    return page;
  }

  /** A visitor (their browser set up with `options`) opens the widget on the demo page and asks the bot for an advisor. */
  async visitorAsksForAdvisor(options: BrowserContextOptions = {}): Promise<Page> {
    const page = await this.newPage(options);
    await page.goto(`${this.file.centre.url}/`);
    await page.locator("chat-widget button.launcher").click();
    // The latest offer of it (the bot may have sent it before, in another template).
    const option = page
      .locator("chat-widget button.option", { hasText: "Talk to an advisor" })
      .last();
    await option.waitFor();
    await expect.poll(() => option.isEnabled()).toBe(true);
    await option.click();
    // The bot's last words before it queues the chat: visitors reach the queue in this order.
    await page
      .locator("chat-widget .message.incoming", { hasText: "Connecting you to an advisor" })
      .waitFor();
    return page;
  }

  /** An advisor (the demo one unless told) signs in to the console and becomes Available. */
  async advisorSignsIn(
    beforeSignIn?: (page: Page) => Promise<void>,
    { username, password } = { username: "demo", password: "demo" },
  ): Promise<Page> {
    const page = await this.newPage();
    await page.goto(`${this.file.centre.url}/agent/`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await beforeSignIn?.(page);
    await page.getByRole("button", { name: "Sign in" }).click();
    const toggle = page.getByRole("switch");
    await toggle.waitFor();
    if ((await toggle.getAttribute("aria-checked")) !== "true") await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-checked"), { timeout: 30_000 }).toBe("true");
    return page;
  }

  async closeAll(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close();
  }
}
