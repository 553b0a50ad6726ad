/**
 * Issue 25, the host page's API in Chromium: on the demo page with data-launcher="hidden" the
 * page opens, minimises and ends the chat through <chat-widget>'s methods, reads unreadCount,
 * and hears every chat-widget:* event on document.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { advisorTakes } from "./advisor.js";
import { setWidgetScript } from "./support.js";
// The element's types as a TypeScript host page gets them: document.querySelector("chat-widget")
// is a ChatWidgetElement, with its methods and events.

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

type Heard = { type: string; detail: { content?: unknown; kind?: string; count?: number } | null };

/** The demo page, its script tag given data-launcher="hidden"; every host event recorded. */
async function hostPage(): Promise<void> {
  await page.addInitScript(() => {
    const heard: unknown[] = [];
    (window as unknown as { heard: unknown[] }).heard = heard;
    for (const type of ["open", "minimise", "message", "unread", "ended"])
      document.addEventListener(`chat-widget:${type}`, (e) =>
        heard.push({ type, detail: (e as CustomEvent).detail }),
      );
  });
  await setWidgetScript(page, { dataset: { launcher: "hidden" } });
  await page.goto(`${file.centre.url}/`);
  await page.evaluate(() => customElements.whenDefined("chat-widget"));
}

const heard = () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);
const types = async () => (await heard()).map((h) => h.type);
const call = (method: "open" | "minimise" | "end") =>
  page.evaluate((m) => document.querySelector("chat-widget")![m](), method);
const unreadCount = () => page.evaluate(() => document.querySelector("chat-widget")!.unreadCount);
const chatWindow = () => page.locator("chat-widget .window");

describe("the host page's API (issue 25)", () => {
  it("with the launcher hidden the page opens, minimises and ends the chat, reads the unread count and hears each event", async () => {
    await hostPage();
    expect(await page.locator("chat-widget button").count()).toBe(0);

    await call("open");
    await chatWindow().waitFor();
    const toAdvisor = page.locator("chat-widget button.option", { hasText: "Talk to an advisor" });
    await expect.poll(() => toAdvisor.isEnabled(), { timeout: 15_000 }).toBe(true);
    expect((await heard()).filter((h) => h.detail?.kind === "template").length).toBeGreaterThan(0);
    await toAdvisor.click();
    await expect
      .poll(async () => (await heard()).map((h) => h.detail?.content), { timeout: 15_000 })
      .toContain("Talk to an advisor");

    const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    const contactId = (JSON.parse(stored ?? "{}") as { chat: { ContactId: string } }).chat
      .ContactId;
    const advisor = await advisorTakes(file.centre.url, contactId);
    await page.locator("chat-widget .event", { hasText: "has joined the chat" }).waitFor();

    await call("minimise");
    await chatWindow().waitFor({ state: "detached" });
    expect(await page.locator("chat-widget button.launcher").count()).toBe(0);
    await advisor.send("Are you still there?");
    await expect.poll(unreadCount, { timeout: 15_000 }).toBe(1);
    await expect
      .poll(async () => (await heard()).map((h) => h.detail?.content), { timeout: 15_000 })
      .toContain("Are you still there?");

    await call("open");
    await chatWindow().waitFor();
    expect(await unreadCount()).toBe(0);
    await call("end");
    await chatWindow().waitFor({ state: "detached" });
    // Ended for the advisor too: the contact centre refuses the ended chat's transcript.
    await expect
      .poll(
        () =>
          advisor.transcript().then(
            () => "going on",
            (e: Error) => e.message,
          ),
        {
          timeout: 15_000,
          interval: 500,
        },
      )
      .toMatch(/chat has ended/);

    const sequence = (await types()).filter((t) => t !== "message");
    expect(sequence).toEqual(["open", "minimise", "unread", "open", "unread", "ended"]);
    const unread = (await heard()).filter((h) => h.type === "unread").map((h) => h.detail);
    expect(unread).toEqual([{ count: 1 }, { count: 0 }]);
  });
});
