/**
 * Issue 26, persistent chat in Chromium: with `data-persistent-chat="on"` a visitor who ended
 * a chat and comes back later (a new tab: a new session, the same local storage) sees that
 * conversation first, then today's greeting, and carries on; without it, a new chat is empty.
 * Issue 57: on the same browser, a visitor with another jwt subject, and anyone after the host's
 * forget() (a site's log-out), see nothing of it and get a fresh chat without an error.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { signJwt } from "../../packages/server/src/gateway/jwt.js";
import { DEMO_JWT_SECRET } from "../../packages/server/src/demo/demo-jwt.js";
import { violations } from "../support/axe.js";
import { WIDGET_BUILD } from "../support/contact-centre.js";
import { setWidgetScript, startContactCentre } from "./support.js";

const BOUND = { timeout: 30_000 };
const YESTERDAY = "My parcel never came, order A-10042";

let context: BrowserContext;

const file = useBrowserFile(() => startContactCentre([WIDGET_BUILD]));
afterEach(async () => {
  await context?.close();
});

const widget = (page: Page, selector: string, hasText?: string) =>
  page.locator(`chat-widget ${selector}`, hasText === undefined ? {} : { hasText });

/**
 * A new tab of the visitor's browser on the demo page, the widget opened; `before` runs on the
 * page once `<chat-widget>` is defined, before the launcher is clicked.
 */
async function visit(
  persistent: boolean,
  before?: (page: Page) => Promise<unknown>,
): Promise<Page> {
  const page = await context.newPage();
  if (persistent) await setWidgetScript(page, { dataset: { persistentChat: "on" } });
  await page.goto(`${file.centre.url}/`);
  if (before) {
    await page.evaluate(() => customElements.whenDefined("chat-widget"));
    await before(page);
  }
  await widget(page, "button.launcher").click();
  return page;
}

/** A fresh chat: today's greeting and menu only, nothing said before, and no error shown. */
async function expectFreshChat(page: Page): Promise<void> {
  await widget(page, "button.option", "Where is my order?").first().waitFor(BOUND);
  expect(await widget(page, ".message.outgoing").count()).toBe(0);
  expect(await widget(page, ".template").count()).toBe(1);
  expect(await widget(page, "[role=alert]").count()).toBe(0);
}

/** Ask for an advisor, write `words` once the composer takes text, then end the chat. */
async function chatAndEnd(page: Page, words: string): Promise<void> {
  const toAdvisor = widget(page, "button.option", "Talk to an advisor").last();
  await expect.poll(() => toAdvisor.isEnabled(), BOUND).toBe(true);
  await toAdvisor.click();
  const box = widget(page, "textarea");
  await expect.poll(() => box.isEnabled(), BOUND).toBe(true);
  await box.fill(words);
  await box.press("Enter");
  await widget(page, ".delivery", "Sent").waitFor(BOUND);
  await widget(page, '[title="Close chat window"]').click();
  await page.locator("chat-widget").getByRole("button", { name: "End chat" }).click();
  await widget(page, "button.launcher").waitFor(BOUND);
}

describe("a returning visitor (issue 26)", () => {
  it("continues yesterday's chat: its words first, then today's greeting and menu, which work", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const yesterday = await visit(true);
    await chatAndEnd(yesterday, YESTERDAY);
    await yesterday.close();

    const today = await visit(true);
    const said = widget(today, ".message.outgoing", YESTERDAY);
    await said.waitFor(BOUND);
    expect(await said.count()).toBe(1);
    // Today's menu follows yesterday's words, and answers.
    const menu = widget(today, "button.option", "Where is my order?").last();
    await expect.poll(() => menu.isEnabled(), BOUND).toBe(true);
    const order = await today.evaluate(() => {
      const root = document.querySelector("chat-widget")!.shadowRoot!;
      const texts = [...root.querySelectorAll(".message, .template")].map((e) => e.textContent);
      return texts;
    });
    const yesterdayAt = order.findIndex((t) => t?.includes(YESTERDAY));
    const greetings = order.flatMap((t, i) => (t?.includes("Welcome to the") ? [i] : []));
    expect(greetings).toHaveLength(2);
    expect(greetings[0]).toBeLessThan(yesterdayAt);
    expect(greetings[1]).toBeGreaterThan(yesterdayAt);
    await menu.click();
    await widget(today, ".template.Panel", "A-10042").waitFor(BOUND);
    expect(await violations(today, "chat-widget")).toEqual([]);
  });

  it("on the same browser, a visitor with another jwt subject, and anyone after forget(), see nothing of the last chat and get a fresh chat without an error (issue 57)", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const alice = await visit(true);
    await chatAndEnd(alice, YESTERDAY);
    await alice.close();

    const bobJwt = signJwt({ sub: "bob", attributes: { customerName: "Bob" } }, DEMO_JWT_SECRET);
    const bob = await visit(true, (page) =>
      page.evaluate(
        (jwt) => document.querySelector("chat-widget")!.setAttribute("jwt", jwt),
        bobJwt,
      ),
    );
    await expectFreshChat(bob);
    await bob.close();

    // Alice again (the demo page's own jwt): her chat was forgotten when Bob came.
    const aliceAgain = await visit(true);
    await expectFreshChat(aliceAgain);
    await chatAndEnd(aliceAgain, YESTERDAY);
    await aliceAgain.close();

    // The site logs her out: whoever comes next, even with her jwt, starts afresh.
    const afterLogOut = await visit(true, (page) =>
      page.evaluate(() => document.querySelector("chat-widget")!.forget()),
    );
    await expectFreshChat(afterLogOut);
    expect(await violations(afterLogOut, "chat-widget")).toEqual([]);
  });

  it("without data-persistent-chat a new chat starts empty", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const yesterday = await visit(false);
    await chatAndEnd(yesterday, YESTERDAY);
    await yesterday.close();
    await expectFreshChat(await visit(false));
  });
});
