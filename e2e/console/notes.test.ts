/**
 * Issue 60 (2): an advisor keeps an internal note in the real console, switching the composer
 * to Note; it stands among the messages, set apart, and stays after a reload; the visitor's
 * real widget never shows it, though the reply sent after it arrives. axe-clean, light and dark.
 */
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { People, consoleTranscript } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

const NOTE = "Refund approved by the team lead";

describe("internal notes in the console (issue 60)", () => {
  it("a note is kept for advisors only; the reply after it reaches the visitor", async () => {
    const visitor = await people.visitorAsksForAdvisor();
    const advisor = await people.advisorSignsIn();
    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });
    await advisor.getByText("Sam has joined the chat").waitFor({ timeout: 15_000 });

    await advisor.getByRole("button", { name: "Note", exact: true }).click();
    const noteBox = advisor.getByRole("textbox", { name: "Note" });
    await noteBox.fill(NOTE);
    await noteBox.press("Enter");
    const kept = consoleTranscript(advisor).locator(".note-item", { hasText: NOTE });
    await kept.waitFor({ timeout: 15_000 });
    expect(await kept.locator(".who").textContent()).toBe("Note · Sam");

    for (const scheme of ["light", "dark"] as const) {
      await advisor.emulateMedia({ colorScheme: scheme });
      expect(await violations(advisor)).toEqual([]);
    }
    await advisor.emulateMedia({ colorScheme: "light" });
    await screenshot(advisor, "note");

    await advisor.getByRole("button", { name: "Reply", exact: true }).click();
    const replyBox = advisor.getByRole("textbox", { name: "Message" });
    await replyBox.fill("Your refund is on its way");
    await replyBox.press("Enter");
    await visitor
      .locator("chat-widget .message.incoming", { hasText: "Your refund is on its way" })
      .waitFor({ timeout: 15_000 });
    const widgetText = await visitor.evaluate(
      () => document.querySelector("chat-widget")?.shadowRoot?.textContent ?? "",
    );
    expect(widgetText).toContain("Your refund is on its way");
    expect(widgetText).not.toContain(NOTE);

    // The note is the chat's, not the page's: it is there after a reload.
    await advisor.reload();
    await consoleTranscript(advisor)
      .locator(".note-item", { hasText: NOTE })
      .waitFor({ timeout: 15_000 });
  });
});
