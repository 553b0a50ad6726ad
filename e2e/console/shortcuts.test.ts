/**
 * Issue 60 (6): the advisor turns notifications on from a click; a visitor who starts waiting
 * and a message in a chat not in view each raise one, and the title counts both. The whole day
 * by keyboard: ? lists the shortcuts, Alt+A accepts the chat waiting longest, Alt+J and Alt+K
 * move between chats, Alt+/ opens canned responses, Alt+N switches Reply and Note. axe-clean
 * with the shortcuts dialog open, light and dark.
 */
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { People, consoleBox, widgetBox } from "../support/people.js";
import { demoAdvisorCanned, screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

const BOUND = { timeout: 15_000 };

/** The notifications the page has shown (recorded by a wrapper around the real Notification). */
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);

describe("notifications and keyboard shortcuts (issue 60)", () => {
  it("notifies of a waiting visitor and of a message out of view; the day's work by keyboard", async () => {
    await demoAdvisorCanned(file.centre.url, {
      Shortcut: "thanks",
      Title: "Thanks",
      Body: "Thank you!",
    });
    const sam = await people.advisorSignsIn(async (page) => {
      await page.context().grantPermissions(["notifications"], { origin: file.centre.url });
      await page.addInitScript(() => {
        const Real = window.Notification;
        const record: string[] = [];
        (window as unknown as { shownNotifications: string[] }).shownNotifications = record;
        class Recorded extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            record.push(`${title} | ${options?.body ?? ""}`);
          }
        }
        Object.defineProperty(window, "Notification", { value: Recorded });
      });
      await page.reload();
      await page.getByLabel("Username").fill("demo");
      await page.getByLabel("Password").fill("demo");
    });
    const notifications = sam.getByRole("button", { name: "Notifications" });
    await notifications.click();
    await expect.poll(() => notifications.getAttribute("aria-pressed"), BOUND).toBe("true");

    const first = await people.visitorAsksForAdvisor();
    await expect
      .poll(() => shown(sam), BOUND)
      .toContain("A visitor is waiting | Alex Morgan is waiting in the queue.");
    await expect.poll(() => sam.title(), BOUND).toBe("(1) Agent console");

    await sam.locator("body").press("?");
    const dialog = sam.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor(BOUND);
    for (const scheme of ["light", "dark"] as const) {
      await sam.emulateMedia({ colorScheme: scheme });
      expect(await violations(sam)).toEqual([]);
    }
    await sam.emulateMedia({ colorScheme: "light" });
    await screenshot(sam, "shortcuts");
    await sam.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached", ...BOUND });

    await sam.keyboard.press("Alt+KeyA");
    await sam.getByText("Sam has joined the chat").waitFor(BOUND);
    const second = await people.visitorAsksForAdvisor();
    await sam.getByRole("button", { name: /Accept chat with/ }).waitFor(BOUND);
    await sam.keyboard.press("Alt+KeyA");
    const tabs = sam.getByRole("tab");
    await expect.poll(() => tabs.count(), BOUND).toBe(2);
    const selected = () => sam.getByRole("tab", { selected: true }).getAttribute("id");
    const secondTab = await selected();
    await sam.keyboard.press("Alt+KeyK");
    await expect.poll(selected, BOUND).not.toBe(secondTab);
    const firstTab = await selected();
    await sam.keyboard.press("Alt+KeyJ");
    await expect.poll(selected, BOUND).toBe(secondTab);

    // A message in the chat not in view: a notification, and the title counts it.
    await widgetBox(first).fill("Still there?");
    await widgetBox(first).press("Enter");
    await expect
      .poll(() => shown(sam), BOUND)
      .toContain("New message from Alex Morgan | Still there?");
    await expect.poll(() => sam.title(), BOUND).toBe("(1) Agent console");

    await sam.keyboard.press("Alt+Slash");
    await expect.poll(() => consoleBox(sam).inputValue(), BOUND).toBe("/");
    await sam
      .getByRole("listbox", { name: "Canned responses" })
      .getByRole("option", { name: /\/thanks/ })
      .waitFor(BOUND);
    await consoleBox(sam).fill("");
    await sam.keyboard.press("Alt+KeyN");
    await expect
      .poll(
        () => sam.getByRole("button", { name: "Note", exact: true }).getAttribute("aria-pressed"),
        BOUND,
      )
      .toBe("true");
    await sam.keyboard.press("Alt+KeyN");
    await consoleBox(sam).fill("Coming, one moment");
    await consoleBox(sam).press("Enter");
    await second
      .locator("chat-widget .message.incoming", { hasText: "Coming, one moment" })
      .waitFor(BOUND);
    expect(firstTab).not.toBe(secondTab);
  });
});
