/**
 * Issue 60 (1a): the advisor sees who the visitor is in the "Visitor" region of the chat in
 * view: the name and e-mail of the visitor's signed jwt, marked Verified, the browser, system
 * and language of the visitor's real Chromium, the page they are on as they move and their
 * local time, in the real console, widget and contact centre.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_EMAIL, DEMO_ORDER_NUMBER } from "../../packages/server/src/demo/demo-jwt.js";
import { useBrowserFile } from "../support/browser-file.js";
import { violations } from "../support/axe.js";
import { People, consoleTranscript, widgetBox } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

describe("the visitor panel (issue 60)", () => {
  it("shows the advisor who the visitor is, from what their chat carries", async () => {
    const visitor = await people.visitorAsksForAdvisor({
      locale: "de-DE",
      timezoneId: "Asia/Tokyo",
    });
    const advisor = await people.advisorSignsIn();
    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });

    const panel = advisor.getByRole("region", { name: "Visitor" });
    await panel.waitFor({ timeout: 15_000 });
    const value = (label: string) =>
      panel
        .locator(".identity > div", { has: advisor.locator(`dt:text-is("${label}")`) })
        .locator("dd");
    await expect.poll(() => value("Browser").textContent(), { timeout: 15_000 }).toMatch(/^Chrom/);
    expect(await value("Name").textContent()).toBe("Alex Morgan Verified");
    expect(await value("E-mail").textContent()).toBe(`${DEMO_EMAIL} Verified`);
    expect(await value("Operating system").textContent()).toMatch(/^Linux/);
    expect(await value("Language").textContent()).toBe("de-DE");
    expect(await panel.getByTestId("order-number").textContent()).toBe(DEMO_ORDER_NUMBER);
    expect(await panel.getByRole("link", { name: DEMO_EMAIL }).getAttribute("href")).toBe(
      `mailto:${DEMO_EMAIL}`,
    );
    // Shown once, above the attributes list, not again in it.
    expect(await panel.locator(".contact-attributes dt").allTextContents()).toEqual([
      "basketItems",
    ]);

    // Where the visitor is: the page of the demo shop, and the time in Tokyo.
    const title = await visitor.title();
    expect(title).not.toBe("");
    const page = panel.getByRole("link", { name: title });
    await page.waitFor({ timeout: 15_000 });
    expect(await page.getAttribute("href")).toBe(`${file.centre.url}/`);
    expect(await value("Local time").textContent()).toMatch(/\d{1,2}:\d{2}.*\(Asia\/Tokyo\)$/);

    // The visitor moves on in a single-page shop: the panel follows, without the query.
    await visitor.evaluate(() => {
      history.pushState(null, "", "/products/42?session=secret#reviews");
      document.title = "Product 42";
    });
    const moved = panel.getByRole("link", { name: "Product 42" });
    await moved.waitFor({ timeout: 15_000 });
    expect(await moved.getAttribute("href")).toBe(`${file.centre.url}/products/42`);
  });

  it("lists the visitor's earlier conversations; one opens read-only, axe-clean, and Escape closes it", async () => {
    // The demo visitor's first chat, answered and ended by the advisor.
    const first = await people.visitorAsksForAdvisor();
    const advisor = await people.advisorSignsIn();
    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });
    await advisor.getByText("Sam has joined the chat").waitFor({ timeout: 15_000 });
    await expect.poll(() => widgetBox(first).isEnabled(), { timeout: 15_000 }).toBe(true);
    await widgetBox(first).fill("My parcel is late");
    await widgetBox(first).press("Enter");
    await consoleTranscript(advisor).getByText("My parcel is late").waitFor({ timeout: 15_000 });
    await advisor.getByRole("button", { name: "End chat" }).click();
    await advisor.getByRole("button", { name: "Close chat" }).click({ timeout: 15_000 });

    // The same visitor (the demo jwt's subject) comes back in another browser.
    await people.visitorAsksForAdvisor();
    await advisor.getByRole("button", { name: /Accept chat with/ }).click({ timeout: 15_000 });
    const list = advisor
      .getByRole("region", { name: "Visitor" })
      .getByRole("list", { name: "Earlier conversations" });
    const entry = list.getByRole("button").first();
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.textContent()).toMatch(/Sam.*My parcel is late/);

    for (const scheme of ["light", "dark"] as const) {
      await advisor.emulateMedia({ colorScheme: scheme });
      await entry.click();
      const dialog = advisor.getByRole("dialog", { name: /^Conversation of / });
      await dialog.getByText("My parcel is late").waitFor({ timeout: 15_000 });
      expect(await dialog.getByRole("textbox").count()).toBe(0);
      expect(await violations(advisor)).toEqual([]);
      if (scheme === "light") await screenshot(advisor, "earlier-conversation");
      await advisor.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached", timeout: 15_000 });
      // Focus is back on the entry that opened it.
      expect(await entry.evaluate((el) => el === document.activeElement)).toBe(true);
    }
  });
});
