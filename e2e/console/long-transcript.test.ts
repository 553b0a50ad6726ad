/**
 * Issue 61, a long chat in the agent console, in Chromium: an advisor's chat of thousands of
 * messages, reopened after a reload, shows its newest page and keeps at most a few hundred
 * message nodes in the DOM (a window of them); Home on the log, page by page, reaches the oldest
 * message, End the newest, with focus on the log all along and no axe violation. The window is a
 * chunk of its own, fetched only once a transcript is long.
 */
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { seedMessages } from "../support/seed-transcript.js";
import { People, consoleTranscript } from "../support/people.js";
import { startContactCentre } from "./support.js";

const BOUND = { timeout: 30_000 };
/** The most message nodes the issue allows in the DOM (the window holds 150 entries). */
const MAX_NODES = 300;
const SEEDED = 5000;

const file = useBrowserFile(startContactCentre);
const people = new People(file);
afterEach(() => people.closeAll());

const said = (n: number) => `Earlier question number ${n}.`;

/** How many message nodes the log holds, and the number of the oldest question among them. */
const logState = (page: Page) =>
  consoleTranscript(page).evaluate((log) => {
    const messages = [...log.querySelectorAll(".message")];
    const number = (m?: Element) => Number(/number (\d+)/.exec(m?.textContent ?? "")?.[1] ?? 0);
    return { nodes: messages.length, oldest: number(messages.find((m) => number(m) > 0)) };
  });

describe("a long chat in the agent console (issue 61)", () => {
  it("of 5,000 messages keeps a window of them in the DOM; Home on the log reaches the oldest, End the newest", async () => {
    const visitor = await people.visitorAsksForAdvisor();
    const advisor = await people.advisorSignsIn();
    const windowChunks: string[] = [];
    advisor.on("request", (r) => {
      if (/\/TranscriptWindow-[^/]*\.js$/.test(r.url())) windowChunks.push(r.url());
    });
    await advisor.getByRole("button", { name: /Accept chat with/ }).click(BOUND);
    await advisor.getByText("Sam has joined the chat").waitFor(BOUND);
    // A short chat: the window's chunk is not fetched.
    expect(windowChunks).toEqual([]);
    const stored = await visitor.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    const { chat } = JSON.parse(stored ?? "{}") as { chat: { ContactId: string } };
    await seedMessages(file.centre.built.deps.db, chat.ContactId, SEEDED, "CUSTOMER", said);

    await advisor.reload();
    const log = consoleTranscript(advisor);
    const question = (n: number) => log.locator(".message", { hasText: said(n) });
    await question(SEEDED).waitFor(BOUND);
    expect((await logState(advisor)).nodes).toBeLessThanOrEqual(MAX_NODES);
    expect(await question(1).count()).toBe(0);
    await expect.poll(() => windowChunks.length, BOUND).toBe(1);
    // The log is busy until the window's chunk is there.
    await expect.poll(() => log.getAttribute("aria-busy"), BOUND).toBe(null);
    await log.focus();
    // The first older page held back: the log says it is loading, and is busy, until it arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await advisor.route(/\/participant\/transcript/, async (route) => {
      await held;
      await route.continue();
    });
    await advisor.keyboard.press("Home");
    const cue = log.getByText("Loading earlier messages…");
    await cue.waitFor(BOUND);
    expect(await log.getAttribute("aria-busy")).toBe("true");
    release();
    await cue.waitFor({ state: "detached", ...BOUND });
    await advisor.unroute(/\/participant\/transcript/);
    expect(await log.getAttribute("aria-busy")).toBe(null);
    // Each Home goes to the oldest entry there is and asks for the page before it, part of
    // which then comes into the log above.
    for (let presses = 0; (await question(1).count()) === 0; presses++) {
      expect(presses).toBeLessThan(SEEDED / 100 + 5);
      const { oldest } = await logState(advisor);
      const older = advisor.waitForResponse((r) => r.url().includes("/participant/transcript"));
      await advisor.keyboard.press("Home");
      await older;
      await expect.poll(async () => (await logState(advisor)).oldest, BOUND).toBeLessThan(oldest);
      expect((await logState(advisor)).nodes).toBeLessThanOrEqual(MAX_NODES);
    }
    await advisor.keyboard.press("Home");
    await expect.poll(() => log.evaluate((el) => el.scrollTop), BOUND).toBe(0);
    expect(await log.getAttribute("aria-live")).toBe("off");
    expect(await violations(advisor)).toEqual([]);
    await advisor.keyboard.press("End");
    await question(SEEDED).waitFor(BOUND);
    expect(await question(1).count()).toBe(0);
    expect(await log.getAttribute("aria-live")).toBe("polite");
    // Focus stayed on the log all along.
    expect(await log.evaluate((el) => document.activeElement === el)).toBe(true);
  });
});
