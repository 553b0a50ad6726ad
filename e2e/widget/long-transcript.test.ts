/**
 * Issue 61, a long conversation in Chromium: a chat of a thousand messages restored after the
 * next page keeps at most a few hundred message nodes in the DOM (a window of them, from
 * chat-views.js); scrolling up reaches the oldest message with what the visitor was reading kept
 * in place as the window moves; Home and End on the log jump to the oldest and the newest.
 */
import { randomUUID } from "node:crypto";
import type { Item } from "@chat-widget/protocol";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { appendItems } from "../../packages/server/src/contact-centre/items-repo.js";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { WIDGET_BUILD } from "../support/contact-centre.js";
import { startContactCentre } from "./support.js";

const BOUND = { timeout: 30_000 };
/** The most message nodes the issue allows in the DOM (the window holds 150 entries). */
const MAX_NODES = 300;
const SEEDED = 1000;

let context: BrowserContext;
const file = useBrowserFile(() => startContactCentre([WIDGET_BUILD]));
afterEach(async () => {
  await context?.close();
});

const widget = (page: Page, selector: string, hasText?: string | RegExp) =>
  page.locator(`chat-widget ${selector}`, hasText === undefined ? {} : { hasText });
const said = (n: number) => `Earlier answer number ${n}.`;

/** `count` of the advisor's messages appended to the contact's transcript in the store. */
async function seed(contactId: string, count: number): Promise<void> {
  const { db } = file.centre.built.deps;
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ last_seq: number }>(
      "SELECT last_seq FROM contacts WHERE contact_id = $1 FOR UPDATE",
      [contactId],
    );
    const at = Date.now();
    const items: Item[] = Array.from({ length: count }, (_, i) => ({
      Id: randomUUID(),
      AbsoluteTime: new Date(at + i).toISOString(),
      Type: "MESSAGE",
      ContentType: "text/plain",
      Content: said(i + 1),
      ParticipantRole: "AGENT",
      ParticipantId: "advisor-of-old",
      DisplayName: "Kim",
    }));
    await appendItems(tx, [{ contactId, lastSeq: row!.last_seq, items }]);
  });
}

/** How many message nodes the log holds, and the number of the first one showing at its top. */
const logState = (page: Page) =>
  widget(page, ".transcript").evaluate((log) => {
    const top = log.getBoundingClientRect().top;
    const messages = [...log.querySelectorAll(".message")];
    const first = messages.find((m) => m.getBoundingClientRect().bottom > top + 1);
    const number = /number (\d+)/.exec(first?.textContent ?? "");
    return { nodes: messages.length, first: number ? Number(number[1]) : 0 };
  });

/** A visitor's chat, then `SEEDED` messages of an advisor's, then the next page. */
async function longChat(): Promise<Page> {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${file.centre.url}/`);
  await widget(page, "button.launcher").click();
  await widget(page, "button.option", "Where is my order?").first().waitFor(BOUND);
  const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
  const { chat } = JSON.parse(stored ?? "{}") as { chat: { ContactId: string } };
  await seed(chat.ContactId, SEEDED);
  await page.reload();
  await widget(page, ".message", said(SEEDED)).waitFor(BOUND);
  return page;
}

describe("a long conversation (issue 61)", () => {
  it("keeps a window of messages in the DOM; Home and End on the log jump to the oldest and the newest", async () => {
    const page = await longChat();
    const log = widget(page, ".transcript");
    expect((await logState(page)).nodes).toBeLessThanOrEqual(MAX_NODES);
    expect(await widget(page, ".message", said(1)).count()).toBe(0);
    await log.focus();
    await page.keyboard.press("Home");
    await widget(page, ".message", said(1)).waitFor(BOUND);
    await expect.poll(() => log.evaluate((el) => el.scrollTop), BOUND).toBe(0);
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

  it("scrolled up, it reaches the oldest message, keeping in place what was showing as the window moves", async () => {
    const page = await longChat();
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
    // At the top: the chat's greeting, then the oldest of the advisor's messages, in view.
    const oldest = await widget(page, ".message", said(1)).boundingBox();
    const box = await log.boundingBox();
    expect(oldest!.y + oldest!.height).toBeLessThanOrEqual(box!.y + box!.height);
  });
});
