/**
 * Issue 26, the demo flow's built-in assistant in Chromium: the visitor chooses "Ask a question"
 * and asks; the answer grows in place word by word (inert while it grows), survives the loss of
 * the websocket in the middle (the widget reconnects; the answer is completed, shown once, never
 * duplicated), no longer inert once complete; axe finds nothing then (e2e/widget/streaming.test.ts
 * checks axe while an answer grows). The visitor then asks for an
 * advisor, and the console shows the same answer once, complete.
 */
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { findAnswer } from "../../packages/server/src/flow/faq.js";
import type { FlowFaq } from "../../packages/server/src/flow/types.js";
import { defaultFlowWith } from "../../packages/server/test/support/flows.js";
import { violations } from "../support/axe.js";
import { CONSOLE_BUILD, WIDGET_BUILD } from "../support/contact-centre.js";
import { People, consoleTranscript, widgetBox } from "../support/people.js";
import { screenshot, startContactCentre } from "./support.js";

/** Words slow enough that the socket surely drops in the middle of the answer. */
const WORD_PAUSE_MS = 150;
const QUESTION = "How do I return an item?";
const BOUND = { timeout: 30_000 };

let faq: FlowFaq;

const file = useBrowserFile(() =>
  startContactCentre([WIDGET_BUILD, CONSOLE_BUILD], {
    flowsDir: defaultFlowWith((flow) => {
      flow.faq!.wordPauseMs = WORD_PAUSE_MS;
      faq = flow.faq!;
    }),
  }),
);
const people = new People(file);
afterAll(() => people.closeAll());

/** The answer's text as the widget shows it: markdown rendered, so without ** and *. */
const plain = (markdown: string): string => markdown.replace(/\*/g, "");

async function choose(page: Page, option: string): Promise<void> {
  const button = page.locator("chat-widget button.option", { hasText: option }).last();
  await button.waitFor(BOUND);
  await expect.poll(() => button.isEnabled(), BOUND).toBe(true);
  await button.click();
}

describe("the demo flow's assistant in the widget (issue 26)", () => {
  it("streams its answer in place, completes it once across a lost websocket, and the console shows it once", async () => {
    const visitor = await people.newPage();
    await visitor.goto(`${file.centre.url}/`);
    await visitor.locator("chat-widget button.launcher").click();
    await choose(visitor, "Ask a question");
    await visitor
      .locator("chat-widget .message.incoming", { hasText: "Ask me anything" })
      .waitFor(BOUND);
    await widgetBox(visitor).fill(QUESTION);
    await widgetBox(visitor).press("Enter");

    const full = plain(findAnswer(faq, QUESTION));
    const firstWords = full.split(" ").slice(0, 3).join(" ");
    const answer = visitor.locator("chat-widget .message.incoming", { hasText: firstWords });
    await answer.waitFor(BOUND);
    // The socket drops in the middle of the answer (still growing: one inert node, not yet the
    // whole text); the widget reconnects by itself.
    expect(await answer.locator("[inert]").count()).toBe(1);
    expect(((await answer.textContent()) ?? "").length).toBeLessThan(full.length);
    const sockets = file.centre.built.app.websocketServer.clients;
    expect(sockets.size).toBeGreaterThan(0);
    for (const socket of sockets) socket.terminate();

    await expect.poll(() => answer.locator("[inert]").count(), BOUND).toBe(0);
    expect(await answer.count()).toBe(1);
    expect(await answer.textContent()).toBe(full);
    expect(
      await visitor.locator("chat-widget .message.incoming", { hasText: firstWords }).count(),
    ).toBe(1);
    expect(await violations(visitor, "chat-widget")).toEqual([]);
    await screenshot(visitor, "faq-answer");

    // The visitor asks for an advisor; the console shows the answer once, complete.
    await widgetBox(visitor).fill("advisor");
    await widgetBox(visitor).press("Enter");
    await visitor
      .locator("chat-widget .message.incoming", { hasText: "Connecting you to an advisor" })
      .waitFor(BOUND);
    const advisor = await people.advisorSignsIn();
    const accept = advisor.getByRole("button", { name: /Accept chat with/ });
    await accept.waitFor(BOUND);
    await accept.click();
    const inConsole = consoleTranscript(advisor).locator(".message", { hasText: firstWords });
    await inConsole.waitFor(BOUND);
    expect(await inConsole.count()).toBe(1);
    expect(await inConsole.locator(".text").textContent()).toBe(full);
  });
});
