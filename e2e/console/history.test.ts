/**
 * Issue 60 (5a): after Sam ends a chat, the History view lists it; the filters find it by
 * advisor and visitor; it opens read-only at an address of its own (which opens it again after
 * a reload) with its transcript to download. axe-clean, light and dark, list and dialog.
 */
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { People, consoleTranscript, widgetBox } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

const BOUND = { timeout: 15_000 };

describe("the History view (issue 60)", () => {
  it("an ended chat is listed, found by the filters, opened read-only at its own address and downloaded", async () => {
    const visitor = await people.visitorAsksForAdvisor();
    const sam = await people.advisorSignsIn();
    await sam.getByRole("button", { name: /Accept chat with/ }).click(BOUND);
    await sam.getByText("Sam has joined the chat").waitFor(BOUND);
    await widgetBox(visitor).fill("My parcel was left in the rain");
    await widgetBox(visitor).press("Enter");
    await consoleTranscript(sam).getByText("My parcel was left in the rain").waitFor(BOUND);
    const tags = sam.getByRole("group", { name: "Tags" });
    await tags.getByRole("combobox", { name: "Add a tag" }).fill("Late parcel");
    await tags.getByRole("button", { name: "Add" }).click();
    await tags.getByText("late parcel").waitFor(BOUND);
    await sam.getByRole("button", { name: "End chat" }).click();
    await sam.getByText("This chat has ended.").waitFor(BOUND);
    await sam.getByLabel("Wrap-up (optional)").fill("Voucher sent for the wet parcel");
    await sam.getByRole("button", { name: "Save wrap-up" }).click();
    await sam.getByText("Wrap-up saved.").waitFor(BOUND);
    for (const scheme of ["light", "dark"] as const) {
      await sam.emulateMedia({ colorScheme: scheme });
      expect(await violations(sam)).toEqual([]);
    }
    await sam.emulateMedia({ colorScheme: "light" });

    await sam
      .getByRole("navigation", { name: "Console views" })
      .getByRole("link", { name: "History" })
      .click();
    const list = sam.getByRole("list", { name: "Conversations" });
    const row = list.getByRole("button", { name: /Alex Morgan/ });
    // The row is built once the chat has ended: a new search shows it when it is there.
    await expect
      .poll(
        async () => {
          await sam.getByRole("button", { name: "Show conversations" }).click();
          return row.count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    await sam.getByLabel("Advisor").selectOption({ label: "Sam" });
    await sam.getByLabel("Visitor").fill("alex");
    await sam.getByRole("button", { name: "Show conversations" }).click();
    await row.waitFor(BOUND);
    await sam.getByLabel("Visitor").fill("nobody-like-this");
    await sam.getByRole("button", { name: "Show conversations" }).click();
    await sam.getByText("No closed conversation matches.").waitFor(BOUND);
    await sam.getByLabel("Visitor").fill("");
    await sam.getByRole("searchbox", { name: "Search conversations" }).fill("RAIN parcel");
    await sam.getByRole("button", { name: "Show conversations" }).click();
    await row.locator("mark", { hasText: "rain" }).waitFor(BOUND);
    await sam.getByRole("searchbox", { name: "Search conversations" }).fill("rain -parcel");
    await sam.getByRole("button", { name: "Show conversations" }).click();
    await sam.getByText("No closed conversation matches.").waitFor(BOUND);
    await sam.getByRole("searchbox", { name: "Search conversations" }).fill("voucher");
    await sam.getByLabel("Tag").fill("Late parcel");
    await sam.getByRole("button", { name: "Show conversations" }).click();
    await row.locator("mark", { hasText: "Voucher" }).waitFor(BOUND);
    await row.getByText("#late parcel").waitFor(BOUND);
    for (const scheme of ["light", "dark"] as const) {
      await sam.emulateMedia({ colorScheme: scheme });
      await row.waitFor(BOUND);
      expect(await violations(sam)).toEqual([]);
    }
    await sam.emulateMedia({ colorScheme: "light" });
    await screenshot(sam, "history");

    await row.click();
    const dialog = sam.getByRole("dialog", { name: /^Conversation of / });
    await dialog.getByText("My parcel was left in the rain").waitFor(BOUND);
    await dialog.getByText("Answered by Sam. Read only.").waitFor(BOUND);
    await dialog.getByRole("group", { name: "Tags" }).getByText("late parcel").waitFor(BOUND);
    expect(sam.url()).toMatch(/#\/history\/[0-9a-f-]{36}$/);
    for (const scheme of ["light", "dark"] as const) {
      await sam.emulateMedia({ colorScheme: scheme });
      expect(await violations(sam)).toEqual([]);
    }
    await sam.emulateMedia({ colorScheme: "light" });
    const [download] = await Promise.all([
      sam.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download transcript" }).click(),
    ]);
    let text = "";
    for await (const chunk of await download.createReadStream()) text += String(chunk);
    expect(text).toMatch(/\] Alex Morgan: My parcel was left in the rain\n/);
    expect(text).toMatch(/\] Sam has joined the chat\n/);

    // The address opens it again after a reload.
    const address = sam.url();
    await sam.reload();
    await sam
      .getByRole("dialog", { name: /^Conversation of / })
      .getByText("My parcel was left in the rain")
      .waitFor(BOUND);
    expect(sam.url()).toBe(address);
    await sam.keyboard.press("Escape");
    await expect.poll(() => sam.url()).toMatch(/#\/history$/);
    await sam.getByRole("link", { name: "Chats" }).click();
    await sam.getByText("No chat in view.").or(sam.getByRole("tablist")).first().waitFor(BOUND);
  });
});
