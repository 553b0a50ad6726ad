/**
 * Issue 9 end to end: a visitor in the real widget and an advisor in the real agent console,
 * in Chromium, chat through the contact centre as a real process (PGlite on disk) behind the
 * fault suite's TCP proxy. Through 60 messages sent as fast as Enter can be pressed, 20 s of
 * the visitor being offline with a message typed meanwhile, and a `kill -9` of the contact
 * centre with a restart, every message arrives once, in order, on the other side, and each
 * side sees its sending and reconnecting states on the way.
 */
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { startRig } from "../../packages/server/test/faults/rig.js";
import { screenshot } from "../support/chromium.js";
import { CONSOLE_BUILD, WIDGET_BUILD, requireBuilds } from "../support/contact-centre.js";
import { People, consoleBox, consoleTranscript, widgetBox } from "../support/people.js";

/** How long the visitor stays offline (issue 9: "20 s offline"). */
const OFFLINE_MS = 20_000;
/** Generous bounds for a loaded 2-core machine: each wait ends as soon as its state is there. */
const SETTLE_MS = 90_000;
const TEST_MS = 420_000;

const file = useBrowserFile(() => {
  requireBuilds([WIDGET_BUILD, CONSOLE_BUILD]);
  return startRig("pglite");
});
const people = new People(file);
afterAll(() => people.closeAll());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MARK = /[va]-[\w-]+/; // in the widget an advisor message reads "Sama-01"
/** The numbered marks (`v-…` from the visitor, `a-…` from the advisor) in a list of texts. */
const marks = (texts: string[]): string[] => texts.flatMap((t) => MARK.exec(t)?.[0] ?? []);

/** What the advisor's console shows from the customer, and its own messages stored. */
const consoleSees = async (advisor: Page, kind: "customer" | "own"): Promise<string[]> =>
  marks(await consoleTranscript(advisor).locator(`.message.${kind} .text`).allTextContents());
/** What the widget shows from the advisor, and the visitor's own messages. */
const widgetSees = async (visitor: Page, kind: "agent" | "outgoing"): Promise<string[]> =>
  marks(await visitor.locator(`chat-widget .message.${kind}`).allTextContents());

async function visitorSends(visitor: Page, text: string): Promise<void> {
  await widgetBox(visitor).fill(text);
  await widgetBox(visitor).press("Enter");
}
async function advisorSends(advisor: Page, text: string): Promise<void> {
  await consoleBox(advisor).fill(text);
  await consoleBox(advisor).press("Enter");
}

/** Both sides show exactly `sent` (in this order, each once) and nothing is left sending. */
async function bothSidesShow(
  visitor: Page,
  advisor: Page,
  sent: { visitor: string[]; advisor: string[] },
): Promise<void> {
  const bound = { timeout: SETTLE_MS, interval: 250 };
  await expect.poll(() => consoleSees(advisor, "customer"), bound).toEqual(sent.visitor);
  await expect.poll(() => widgetSees(visitor, "agent"), bound).toEqual(sent.advisor);
  await expect.poll(() => widgetSees(visitor, "outgoing"), bound).toEqual(sent.visitor);
  await expect.poll(() => consoleSees(advisor, "own"), bound).toEqual(sent.advisor);
  // Nothing still sending or refused (the last message's "Sent", "Delivered" or "Read" stays).
  const unsettled = visitor.locator("chat-widget .delivery", { hasText: /Sending…|Not sent/ });
  await expect.poll(() => unsettled.count(), bound).toBe(0);
  await expect.poll(() => advisor.locator("[data-receipt=sending]").count(), bound).toBe(0);
}

describe("the real widget and console keep every message through faults (issue 9)", () => {
  it(
    "60 quick messages, 20 s offline with a message typed, kill -9 and restart: each message once, in order, both ways",
    async () => {
      const visitor = await people.visitorAsksForAdvisor();
      const advisor = await people.advisorSignsIn();
      const accept = advisor.getByRole("button", { name: /Accept chat with/ });
      await accept.waitFor({ timeout: SETTLE_MS });
      await accept.click();
      await visitor.locator("chat-widget .event", { hasText: "Sam has joined the chat" }).waitFor();
      await expect.poll(() => widgetBox(visitor).isEnabled(), { timeout: SETTLE_MS }).toBe(true);
      const sent = { visitor: [] as string[], advisor: [] as string[] };

      // 60 messages as fast as the visitor can press Enter (past the server's rate limit).
      for (let i = 1; i <= 60; i++) {
        const text = `v-${String(i).padStart(2, "0")}`;
        sent.visitor.push(text);
        await visitorSends(visitor, text);
      }
      sent.advisor.push("a-01");
      await advisorSends(advisor, "a-01");
      await bothSidesShow(visitor, advisor, sent);

      // The visitor goes offline for 20 s and writes meanwhile; the advisor writes too.
      await visitor.context().setOffline(true);
      const offlineAt = Date.now();
      sent.visitor.push("v-offline");
      await visitorSends(visitor, "v-offline");
      const sending = visitor.locator("chat-widget .delivery", { hasText: "Sending…" });
      await sending.waitFor({ timeout: SETTLE_MS });
      sent.advisor.push("a-while-away");
      await advisorSends(advisor, "a-while-away");
      await visitor.locator("chat-widget .reconnecting").waitFor({ timeout: SETTLE_MS });
      await screenshot(visitor, "delivery-offline");
      await sleep(Math.max(0, OFFLINE_MS - (Date.now() - offlineAt)));
      expect(await consoleSees(advisor, "customer")).not.toContain("v-offline");
      await visitor.context().setOffline(false);
      await bothSidesShow(visitor, advisor, sent);
      await expect
        .poll(() => visitor.locator("chat-widget .reconnecting").count(), { timeout: SETTLE_MS })
        .toBe(0);

      // kill -9 of the contact centre mid-chat; both write while it is down; it restarts.
      await file.centre.kill();
      sent.visitor.push("v-down");
      await visitorSends(visitor, "v-down");
      sent.advisor.push("a-down");
      await advisorSends(advisor, "a-down");
      await sending.waitFor({ timeout: SETTLE_MS });
      await advisor.locator("[data-receipt=sending]").waitFor({ timeout: SETTLE_MS });
      await visitor.locator("chat-widget .reconnecting").waitFor({ timeout: SETTLE_MS });
      await advisor.locator(".note.reconnecting").waitFor({ timeout: SETTLE_MS });
      await screenshot(advisor, "delivery-server-down");
      await file.centre.restart();
      await bothSidesShow(visitor, advisor, sent);

      // The chat carries on after the restart.
      sent.visitor.push("v-after");
      await visitorSends(visitor, "v-after");
      sent.advisor.push("a-after");
      await advisorSends(advisor, "a-after");
      await bothSidesShow(visitor, advisor, sent);
    },
    TEST_MS,
  );
});
