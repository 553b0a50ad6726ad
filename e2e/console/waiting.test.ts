/**
 * Waiting for an advisor (issue 24), in Chromium with the real widget and the real console:
 * with no advisor Available each visitor is told so and hears their place in the queue; when
 * the advisor takes the first chat, the second visitor hears they are next.
 */
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { People } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterAll(async () => {
  await people.closeAll();
});

const incoming = (page: Page, text: string) =>
  page.locator("chat-widget .message.incoming", { hasText: text });

describe("waiting for an advisor", () => {
  it("no advisor Available: each visitor is told so and hears their place; the advisor takes the first and the second hears they are next", async () => {
    const first = await people.visitorAsksForAdvisor();
    await incoming(first, "No advisor is available right now.").waitFor();
    await incoming(first, "You are number 1 in the queue.").waitFor({ timeout: 15_000 });
    // Markdown: the place stands out.
    expect(await incoming(first, "You are number").locator("strong").textContent()).toBe("1");

    const second = await people.visitorAsksForAdvisor();
    await incoming(second, "You are number 2 in the queue.").waitFor({ timeout: 15_000 });
    await screenshot(second, "queue-position");

    const advisor = await people.advisorSignsIn();
    const accept = advisor.getByRole("button", { name: /Accept chat with/ });
    await expect.poll(() => accept.count(), { timeout: 15_000 }).toBe(2);
    await accept.first().click();
    await first.locator("chat-widget .event", { hasText: "has joined the chat" }).waitFor({
      timeout: 15_000,
    });
    await incoming(second, "You are number 1 in the queue.").waitFor({ timeout: 15_000 });
    expect(await incoming(first, "You are number").count()).toBe(1);
  });
});
