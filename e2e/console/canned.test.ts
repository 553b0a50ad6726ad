/**
 * Issue 60 (3): the advisor answers with a canned response from the real console's composer:
 * `/` and a few letters, Enter takes it with the visitor's name and order number filled in
 * (escaped for markdown), Enter again sends it; the visitor's widget shows it as written.
 * axe-clean with the list open, light and dark.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_ORDER_NUMBER } from "../../packages/server/src/demo/demo-jwt.js";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { People, consoleBox } from "../support/people.js";
import { demoAdvisorCanned, screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

describe("canned responses in the console (issue 60)", () => {
  it("/ and a few letters, Enter fills it in, Enter sends it to the visitor", async () => {
    await demoAdvisorCanned(file.centre.url, {
      Shortcut: "where",
      Title: "Where is my order",
      Body: "Hi {{visitor.name}}, your order {{attributes.orderNumber}} left our warehouse today.",
    });
    const visitor = await people.visitorAsksForAdvisor();
    const advisor = await people.advisorSignsIn();
    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });
    await advisor.getByText("Sam has joined the chat").waitFor({ timeout: 15_000 });

    const box = consoleBox(advisor);
    await box.pressSequentially("/wh");
    const list = advisor.getByRole("listbox", { name: "Canned responses" });
    await list.waitFor({ timeout: 15_000 });
    expect(await list.getByRole("option").allTextContents()).toEqual([
      expect.stringMatching(/^\/where Where is my order · yours/),
    ]);
    for (const scheme of ["light", "dark"] as const) {
      await advisor.emulateMedia({ colorScheme: scheme });
      expect(await violations(advisor)).toEqual([]);
    }
    await advisor.emulateMedia({ colorScheme: "light" });
    await screenshot(advisor, "canned");

    await box.press("Enter");
    const filled = `Hi Alex Morgan, your order ${DEMO_ORDER_NUMBER.replace("-", "\\-")} left our warehouse today.`;
    await expect.poll(() => box.inputValue()).toBe(filled);
    expect(await list.count()).toBe(0);
    await box.press("Enter");
    await visitor
      .locator("chat-widget .message.incoming", {
        hasText: `Hi Alex Morgan, your order ${DEMO_ORDER_NUMBER} left our warehouse today.`,
      })
      .waitFor({ timeout: 15_000 });
  });
  it("the advisor adds, changes and deletes their own in 'Manage canned responses', and the composer follows", async () => {
    await people.visitorAsksForAdvisor();
    const advisor = await people.advisorSignsIn();
    const opener = advisor.getByRole("button", { name: "Canned responses", exact: true });
    await opener.click();
    const dialog = advisor.getByRole("dialog", { name: "Manage canned responses" });
    await dialog.waitFor({ timeout: 15_000 });
    await dialog.getByLabel("Shortcut").fill("thanks");
    await dialog.getByLabel("Title").fill("Thank you");
    await dialog.getByLabel("Text").fill("Thank you, {{visitor.name}}!");
    await dialog.getByRole("button", { name: "Add" }).click();
    await dialog.getByRole("status").getByText("Saved /thanks.").waitFor({ timeout: 15_000 });

    await dialog.getByRole("button", { name: "Change /thanks" }).click();
    await dialog.getByLabel("Text").fill("Thanks a lot, {{visitor.name}}!");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    const own = dialog.getByRole("list", { name: "Yours" });
    await own.getByText("Thanks a lot, {{visitor.name}}!").waitFor({ timeout: 15_000 });
    for (const scheme of ["light", "dark"] as const) {
      await advisor.emulateMedia({ colorScheme: scheme });
      expect(await violations(advisor)).toEqual([]);
    }
    await advisor.emulateMedia({ colorScheme: "light" });
    await screenshot(advisor, "canned-manage");
    await advisor.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => opener.evaluate((b) => b === document.activeElement)).toBe(true);

    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });
    const box = consoleBox(advisor);
    // The first test's chat is still open here: write only once the accepted chat is in view
    // (accepting puts it in view and then focuses its composer).
    await expect
      .poll(() => box.evaluate((b) => b === document.activeElement).catch(() => false), {
        timeout: 15_000,
      })
      .toBe(true);
    await box.pressSequentially("/than");
    await advisor.getByRole("listbox", { name: "Canned responses" }).waitFor({ timeout: 15_000 });
    await box.press("Enter");
    await expect.poll(() => box.inputValue()).toBe("Thanks a lot, Alex Morgan!");
    await box.fill("");

    await opener.click();
    await dialog.getByRole("button", { name: "Delete /thanks" }).click();
    await dialog
      .getByRole("group", { name: "Delete /thanks?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await dialog.getByRole("status").getByText("Deleted /thanks.").waitFor({ timeout: 15_000 });
    await dialog.getByRole("button", { name: "Close" }).click();
    await box.pressSequentially("/than");
    await advisor.getByText("No canned response matches /than").waitFor({ timeout: 15_000 });
  });
});
