/**
 * Issue 24: axe-core finds no WCAG 2.2 AA violation in the agent console, in Chromium: the
 * sign-in page, the queue with a visitor waiting, and a chat in progress with its visitor panel
 * (issue 60), light and dark.
 */
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { violations } from "../support/axe.js";
import { People, consoleBox } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

describe("axe-core finds no WCAG 2.2 AA violation in the agent console (issue 24)", () => {
  it.each([
    ["light", "rgb(246, 248, 250)"],
    ["dark", "rgb(13, 17, 23)"],
  ] as const)(
    "sign-in, the queue with a visitor waiting, and a chat in progress, in the %s scheme the advisor's system prefers",
    async (scheme, pageBackground) => {
      const visitor = await people.visitorAsksForAdvisor();
      let signIn: string[] = [];
      let background = "";
      const advisor = await people.advisorSignsIn(async (page) => {
        await page.emulateMedia({ colorScheme: scheme });
        background = await page.evaluate(
          () => getComputedStyle(document.documentElement).backgroundColor,
        );
        signIn = await violations(page);
      });
      expect(background).toBe(pageBackground);
      expect(signIn).toEqual([]);

      const accept = advisor.getByRole("button", { name: /Accept chat with/ });
      await accept.waitFor({ timeout: 15_000 });
      expect(await violations(advisor)).toEqual([]);

      await accept.click();
      await advisor.getByText("Sam has joined the chat").waitFor({ timeout: 15_000 });
      await consoleBox(advisor).fill("Hello, how can I help?");
      await consoleBox(advisor).press("Enter");
      await visitor
        .locator("chat-widget .message.incoming", { hasText: "how can I help" })
        .waitFor({ timeout: 15_000 });
      await visitor.locator("chat-widget textarea").fill("Where is my parcel?");
      await visitor.locator("chat-widget textarea").press("Enter");
      await advisor.getByText("Where is my parcel?").waitFor({ timeout: 15_000 });
      // The visitor panel (issue 60) with its details loaded.
      await expect
        .poll(() => advisor.getByTestId("visitor-browser").textContent(), { timeout: 15_000 })
        .toMatch(/^Chrom/);
      expect(await violations(advisor)).toEqual([]);
      await screenshot(advisor, scheme);
    },
  );
});
