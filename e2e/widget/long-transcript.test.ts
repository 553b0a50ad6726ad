/**
 * Issue 61, a long conversation in Chromium: a chat of thousands of messages restored on the
 * next page shows its newest page and keeps at most a few hundred message nodes in the DOM (a
 * window of them, from chat-views.js); older pages load as the visitor scrolls up, which reaches
 * the oldest message with what the visitor was reading kept in place as the window moves; Home
 * and End on the log go to the oldest and the newest.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { seedMessages } from "../support/seed-transcript.js";
import { WIDGET_BUILD } from "../support/contact-centre.js";
import { startContactCentre } from "./support.js";

const BOUND = { timeout: 30_000 };
/** The most message nodes the issue allows in the DOM (the window holds 150 entries). */
const MAX_NODES = 300;

let context: BrowserContext;
const file = useBrowserFile(() => startContactCentre([WIDGET_BUILD]));
afterEach(async () => {
  await context?.close();
});

const widget = (page: Page, selector: string, hasText?: string | RegExp) =>
  page.locator(`chat-widget ${selector}`, hasText === undefined ? {} : { hasText });
const said = (n: number) => `Earlier answer number ${n}.`;

/**
 * How many message nodes the log holds, the number of the first one showing at its top (0 for
 * the chat's greeting), and of the oldest of the advisor's messages it holds.
 */
const logState = (page: Page) =>
  widget(page, ".transcript").evaluate((log) => {
    const top = log.getBoundingClientRect().top;
    const messages = [...log.querySelectorAll(".message")];
    const first = messages.find((m) => m.getBoundingClientRect().bottom > top + 1);
    const number = (m?: Element) => Number(/number (\d+)/.exec(m?.textContent ?? "")?.[1] ?? 0);
    const oldest = messages.find((m) => number(m) > 0);
    return { nodes: messages.length, first: number(first), oldest: number(oldest) };
  });

/** A visitor's chat, then `seeded` messages of an advisor's, then the next page. */
async function longChat(seeded: number): Promise<Page> {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${file.centre.url}/`);
  await widget(page, "button.launcher").click();
  await widget(page, "button.option", "Where is my order?").first().waitFor(BOUND);
  const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
  const { chat } = JSON.parse(stored ?? "{}") as { chat: { ContactId: string } };
  await seedMessages(file.centre.built.deps.db, chat.ContactId, seeded, "AGENT", said);
  await page.reload();
  await widget(page, ".message", said(seeded)).waitFor(BOUND);
  return page;
}

describe("a long conversation (issue 61)", () => {
  it("of 5,000 messages keeps a window of them in the DOM; Home on the log reaches the oldest, End the newest", async () => {
    const SEEDED = 5000;
    const page = await longChat(SEEDED);
    const log = widget(page, ".transcript");
    expect((await logState(page)).nodes).toBeLessThanOrEqual(MAX_NODES);
    expect(await widget(page, ".message", said(1)).count()).toBe(0);
    await log.focus();
    // Each Home goes to the oldest entry there is and asks for the page before it, part of
    // which then comes into the log above.
    for (let presses = 0; (await widget(page, ".message", said(1)).count()) === 0; presses++) {
      expect(presses).toBeLessThan(SEEDED / 100 + 5);
      const { oldest } = await logState(page);
      const older = page.waitForResponse((r) => r.url().includes("/participant/transcript"));
      await page.keyboard.press("Home");
      await older;
      await expect.poll(async () => (await logState(page)).oldest, BOUND).toBeLessThan(oldest);
      expect((await logState(page)).nodes).toBeLessThanOrEqual(MAX_NODES);
    }
    await page.keyboard.press("Home");
    await expect.poll(() => log.evaluate((el) => el.scrollTop), BOUND).toBe(0);
    expect((await logState(page)).first).toBeLessThanOrEqual(1);
    expect(await log.getAttribute("aria-live")).toBe("off");
    expect((await logState(page)).nodes).toBeLessThanOrEqual(MAX_NODES);
    expect(await violations(page, "chat-widget")).toEqual([]);
    await page.keyboard.press("End");
    await widget(page, ".message", said(SEEDED)).waitFor(BOUND);
    expect(await widget(page, ".message", said(1)).count()).toBe(0);
    expect(await log.getAttribute("aria-live")).toBe("polite");
    // Focus stayed on the log all along.
    expect(
      await log.evaluate((el) =>
        el.getRootNode() instanceof ShadowRoot
          ? (el.getRootNode() as ShadowRoot).activeElement === el
          : document.activeElement === el,
      ),
    ).toBe(true);
  });

  it("the older pages read in the background leave in place what the visitor reads", async () => {
    const page = await longChat(1000);
    // Nine older pages after the restored one (each asked for with the token of the page
    // after it): up to ten in all, 1,000 items. The client's own catch-up read has no token.
    let read = 0;
    page.on("response", (r) => {
      const older = /"NextToken":"[^"]/.test(r.request().postData() ?? "");
      if (r.url().includes("/participant/transcript") && older) read++;
    });
    const log = widget(page, ".transcript");
    await log.focus();
    for (let presses = 0; presses < 3; presses++) await page.keyboard.press("PageUp");
    // PageUp scrolls smoothly: what the visitor reads is where the scroll comes to rest.
    const settled = () =>
      log.evaluate(async (el) => {
        const before = el.scrollTop;
        for (let frame = 0; frame < 3; frame++)
          await new Promise((done) => requestAnimationFrame(done));
        return el.scrollTop === before && el.scrollTop > 0;
      });
    await expect.poll(settled, BOUND).toBe(true);
    const reading = await logState(page);
    await expect.poll(() => read, BOUND).toBe(9);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    expect((await logState(page)).first).toBe(reading.first);
    expect(await widget(page, ".message", said(1)).count()).toBe(0);
  });

  it("scrolled up, it reaches the oldest message, keeping in place what was showing as the window moves", async () => {
    const SEEDED = 1000;
    const page = await longChat(SEEDED);
    const log = widget(page, ".transcript");
    await log.focus();
    // PageUp by keyboard until the window has moved at least once.
    const start = await logState(page);
    let state = start;
    for (let presses = 0; presses < 200; presses++) {
      await page.keyboard.press("PageUp");
      const next = await logState(page);
      expect(next.first).toBeLessThanOrEqual(state.first);
      state = next;
      if (await widget(page, ".message", said(SEEDED - 200)).count()) break;
    }
    expect(state.first).toBeLessThan(SEEDED - 150);
    // Then a wheel's worth at a time, to the top: the message at the top never jumps ahead.
    for (let turns = 0; (await log.evaluate((el) => el.scrollTop)) > 0; turns++) {
      expect(turns).toBeLessThan(500);
      const before = await logState(page);
      await log.evaluate((el) => el.scrollBy(0, -1500));
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
      const after = await logState(page);
      expect(after.first).toBeLessThanOrEqual(before.first);
      expect(after.nodes).toBeLessThanOrEqual(MAX_NODES);
    }
    // At the top: the chat's greeting, then the oldest of the advisor's messages.
    const oldest = await widget(page, ".message", said(1)).boundingBox();
    expect(oldest!.y).toBeGreaterThanOrEqual((await log.boundingBox())!.y);
    expect(await logState(page)).toMatchObject({ first: 0, oldest: 1 });
  });
});
