/**
 * Issue 26, a streamed answer in Chromium: the contact centre streams a markdown answer (with a
 * link) into the visitor's chat; the widget grows it in place, inert while it grows (axe finds
 * nothing: no focusable link hidden from screen readers), then shows it once, complete, its link
 * reachable by keyboard, axe clean.
 */
import type { BrowserContext } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { ContentType } from "@chat-widget/protocol";
import { MessageStream } from "../../packages/server/src/contact-centre/message-stream.js";
import { violations } from "../support/axe.js";

let context: BrowserContext | undefined;

const file = useBrowserFile();
afterEach(async () => {
  await context?.close();
  context = undefined;
});

describe("a streamed answer in the widget (issue 26)", () => {
  it("grows in place, inert and axe-clean while it grows, then is shown once with its link reachable by keyboard", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${file.centre.url}/`);
    await page.locator("chat-widget button.launcher").click();
    await page.locator("chat-widget button.option").first().waitFor({ timeout: 15_000 });
    const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    const contactId = (JSON.parse(stored ?? "{}") as { chat: { ContactId: string } }).chat
      .ContactId;
    const deps = file.centre.built.deps;
    const system = (await deps.centre.getParticipants(contactId)).find((p) => p.role === "SYSTEM")!;
    const stream = new MessageStream(deps.centre, contactId, system.participantId, {
      contentType: ContentType.TEXT_MARKDOWN,
      displayName: "Shop assistant",
    });

    const answer = page.locator("chat-widget .message.incoming", { hasText: "Returns are free" });
    await stream.append("Returns are free within 30 days: ");
    await answer.waitFor({ timeout: 15_000 });
    await stream.append("see [our returns page](https://shop.example/returns).");
    await page
      .locator("chat-widget .message.incoming a", { hasText: "our returns page" })
      .waitFor({ timeout: 15_000 });
    expect(await answer.locator("[inert]").count()).toBe(1);
    expect(await violations(page, "chat-widget")).toEqual([]);

    await stream.complete();
    await expect.poll(() => answer.locator("[inert]").count(), { timeout: 15_000 }).toBe(0);
    expect(await answer.count()).toBe(1);
    expect(await answer.textContent()).toBe(
      "Returns are free within 30 days: see our returns page.",
    );
    expect(await violations(page, "chat-widget")).toEqual([]);
    const link = answer.locator("a");
    await link.focus();
    expect(await link.evaluate((a) => a === (a.getRootNode() as ShadowRoot).activeElement)).toBe(
      true,
    );
  });
});
