/**
 * Issue 26, the demo flow's menu in Chromium: each option renders its template in the widget
 * (Panel, QuickReply, TimePicker, Carousel), is answered by keyboard alone, the choice shows once
 * as what was chosen, the flow answers it, and axe finds nothing in the window with the template.
 * ("Ask a question" is e2e/widget/faq-assistant.test.ts; "Talk to an advisor" e2e/widget/advisor.test.ts.)
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { violations } from "../support/axe.js";
import { WIDGET_BUILD } from "../support/contact-centre.js";
import { screenshot, startContactCentre } from "./support.js";

const BOUND = { timeout: 30_000 };

let context: BrowserContext;
let page: Page;

const file = useBrowserFile(() => startContactCentre([WIDGET_BUILD]));
beforeEach(async () => {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

const widget = (selector: string, hasText?: string | RegExp) =>
  page.locator(`chat-widget ${selector}`, hasText === undefined ? {} : { hasText });
const outgoing = () => widget(".message.outgoing");
/** The focused element inside the widget: its class and text. */
const focused = () =>
  page.evaluate(() => {
    const active = document.querySelector("chat-widget")?.shadowRoot?.activeElement;
    return active ? `${active.className}:${active.textContent}` : "";
  });

/** Press Enter on an enabled option of the latest template (focus put there, not clicked). */
async function choose(title: string): Promise<void> {
  const button = widget(".template button.option", title).last();
  await button.waitFor(BOUND);
  await expect.poll(() => button.isEnabled(), BOUND).toBe(true);
  await button.focus();
  await page.keyboard.press("Enter");
}

/** Open the widget on the demo page by keyboard and choose a menu option. */
async function menu(option: string): Promise<void> {
  await page.goto(`${file.centre.url}/`);
  await widget("button.launcher").focus();
  await page.keyboard.press("Enter");
  await choose(option);
  await outgoing().filter({ hasText: option }).waitFor(BOUND);
}

describe("the demo flow's menu renders each template, answered by keyboard (issue 26)", () => {
  it("'Where is my order?': a Panel with the order's status; 'No, thanks' ends the chat", async () => {
    await menu("Where is my order?");
    const panel = widget(".template.Panel", "A-10042");
    await panel.waitFor(BOUND);
    // Markdown in the title: the order number in bold.
    expect(await panel.locator("strong").textContent()).toBe("A-10042");
    expect(await panel.textContent()).toContain("Dispatched today");
    expect(await violations(page, "chat-widget")).toEqual([]);
    await screenshot(page, "template-panel");
    await choose("No, thanks");
    await widget(".message.incoming", "Thanks for chatting").waitFor(BOUND);
    expect(await outgoing().allTextContents()).toEqual(["Where is my order?", "No, thanks"]);
  });

  it("'Returns and refunds': the answer, then quick replies as chips", async () => {
    await menu("Returns and refunds");
    await widget(".message.incoming", "30 days").waitFor(BOUND);
    const quick = widget(".template.QuickReply");
    await quick.waitFor(BOUND);
    expect(await quick.locator("ul.chips button").allTextContents()).toEqual([
      "No, thanks",
      "Something else",
      "Talk to an advisor",
    ]);
    expect(await violations(page, "chat-widget")).toEqual([]);
    await choose("Something else");
    await widget(".template.ListPicker", "Is there anything else I can help with?").waitFor(BOUND);
    expect(await outgoing().allTextContents()).toEqual(["Returns and refunds", "Something else"]);
  });

  it("'Book a call back': a TimePicker of three days' slots; the chosen slot reads as its day and time, and is booked", async () => {
    await menu("Book a call back");
    const picker = widget(".template.TimePicker");
    await picker.waitFor(BOUND);
    const days = picker.getByRole("group");
    expect(await days.count()).toBe(3);
    expect(await picker.locator("button.option").count()).toBe(9);
    expect(await violations(page, "chat-widget")).toEqual([]);
    await screenshot(page, "template-time-picker");
    // The second day's afternoon slot, by keyboard.
    const slot = days.nth(1).locator("button.option").nth(1);
    const [day, label] = [
      await days.nth(1).locator(".day-label").textContent(),
      await slot.textContent(),
    ];
    await slot.focus();
    await page.keyboard.press("Enter");
    await widget(".message.incoming", "call back is booked").waitFor(BOUND);
    const sent = (await outgoing().allTextContents())[1] ?? "";
    // Shown as a day and time (never the ISO date sent): the slot's time and the day's date.
    expect(sent).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(sent).toContain((label ?? "").replace("15 min", ""));
    expect(sent).toContain((day ?? "").match(/\d+/)?.[0] ?? "?");
    expect(await outgoing().count()).toBe(2);
  });

  it("'Our bestsellers': a Carousel moved with the arrow keys; the option chosen reads as itself, once", async () => {
    await menu("Our bestsellers");
    const carousel = widget(".template.Carousel");
    await carousel.waitFor(BOUND);
    await expect.poll(() => carousel.getByRole("group", { name: "1 of 4" }).count()).toBe(1);
    const first = widget(".template button.option", "Merino jumper");
    await expect.poll(() => first.isEnabled(), BOUND).toBe(true);
    await first.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => carousel.getByRole("group", { name: "2 of 4" }).count()).toBe(1);
    expect(await focused()).toMatch(/^option:Linen throw/);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => carousel.getByRole("group", { name: "3 of 4" }).count()).toBe(1);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(focused).toMatch(/^option:Linen throw/);
    expect(await violations(page, "chat-widget")).toEqual([]);
    await screenshot(page, "template-carousel");
    await page.keyboard.press("Enter");
    await widget(".message.incoming", "Good choice").waitFor(BOUND);
    expect(await widget(".message.incoming", "Good choice").textContent()).toContain("Linen throw");
    expect(await outgoing().allTextContents()).toEqual(["Our bestsellers", "Linen throw"]);
  });
});
