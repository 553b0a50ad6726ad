/**
 * A visitor on the demo page (the real widget) and an advisor in the real agent console chat
 * with each other through the real contact centre, in Chromium; both sides are checked.
 */
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { DEMO_ORDER_NUMBER } from "../../packages/server/src/demo/demo-jwt.js";
import { downloaded } from "../support/chromium.js";
import { People, consoleBox, consoleTranscript, widgetBox } from "../support/people.js";
import { screenshot } from "./support.js";

const file = useBrowserFile();
const people = new People(file);
afterEach(() => people.closeAll());

const visitorAsksForAdvisor = () => people.visitorAsksForAdvisor();
const advisorSignsIn = () => people.advisorSignsIn((page) => screenshot(page, "sign-in"));
const transcript = consoleTranscript;

describe("a visitor and an advisor chat through the contact centre", () => {
  it("the advisor accepts the visitor's chat; messages, typing and receipts go both ways", async () => {
    const visitor = await visitorAsksForAdvisor();
    const advisor = await advisorSignsIn();

    // The queue updates live with the waiting visitor and the order number they reported.
    const accept = advisor.getByRole("button", { name: /Accept chat with/ });
    await accept.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => advisor.locator(".queue li").first().textContent(), { timeout: 15_000 })
      .toContain(DEMO_ORDER_NUMBER);
    await accept.click();

    // The console: the contact's order number, and the bot and visitor items, each once.
    await expect
      .poll(() => advisor.getByTestId("order-number").textContent(), { timeout: 15_000 })
      .toBe(DEMO_ORDER_NUMBER);
    await transcript(advisor).getByText("Talk to an advisor").first().waitFor();
    await advisor.getByText("Sam has joined the chat").waitFor();
    expect(
      await transcript(advisor)
        .locator(".message.customer", { hasText: "Talk to an advisor" })
        .count(),
    ).toBe(1);
    expect(
      await transcript(advisor).locator(".message.bot", { hasText: "Welcome to the" }).count(),
    ).toBe(1);

    // The visitor sees the advisor join.
    await visitor.locator("chat-widget .event", { hasText: "Sam has joined the chat" }).waitFor();
    await expect.poll(() => widgetBox(visitor).isEnabled(), { timeout: 15_000 }).toBe(true);

    // Visitor types: the advisor sees it (for 3 s, so watched for from the first key); then
    // the message arrives once.
    await Promise.all([
      advisor.locator(".typing", { hasText: "is typing" }).waitFor(),
      widgetBox(visitor).pressSequentially("My parcel is late"),
    ]);
    await widgetBox(visitor).press("Enter");
    await transcript(advisor)
      .locator(".message.customer", { hasText: "My parcel is late" })
      .waitFor();
    await expect.poll(() => advisor.locator(".typing").count()).toBe(0);

    // Advisor types (markdown, Enter sends): the visitor sees the typing dots, then the message.
    await Promise.all([
      visitor.locator("chat-widget .typing").waitFor(),
      consoleBox(advisor).pressSequentially("Let me **check** that"),
    ]);
    await consoleBox(advisor).press("Enter");
    const reply = visitor.locator("chat-widget .message.agent", { hasText: "Let me check that" });
    await reply.waitFor();
    expect(await reply.locator("strong").textContent()).toBe("check");
    expect(await consoleBox(advisor).inputValue()).toBe("");

    // The widget's delivered receipt reaches the console's mark on the advisor's message.
    const own = transcript(advisor).locator(".message.own", { hasText: "Let me check that" });
    await expect
      .poll(() => own.locator(".receipt").getAttribute("data-receipt"), { timeout: 15_000 })
      .toMatch(/delivered|read/);
    expect(
      await transcript(advisor).locator(".message.own", { hasText: "Let me check that" }).count(),
    ).toBe(1);
    await screenshot(advisor, "advisor-chat");
    await screenshot(visitor, "visitor-chat");

    // A reload keeps the advisor signed in and restores the chat from its transcript, each item once.
    await advisor.reload();
    await transcript(advisor).locator(".message.own", { hasText: "Let me check that" }).waitFor();
    expect(
      await transcript(advisor)
        .locator(".message.customer", { hasText: "My parcel is late" })
        .count(),
    ).toBe(1);
    expect(
      await transcript(advisor).locator(".message.own", { hasText: "Let me check that" }).count(),
    ).toBe(1);
    await consoleBox(advisor).fill("Still here after a reload");
    await consoleBox(advisor).press("Enter");
    await visitor
      .locator("chat-widget .message.agent", { hasText: "Still here after a reload" })
      .waitFor();

    // The advisor ends the chat: both sides see it.
    await advisor.getByRole("button", { name: "End chat" }).click();
    await visitor.locator("chat-widget .event", { hasText: "Chat has ended!" }).waitFor();
    await transcript(advisor).getByText("Chat has ended!").waitFor();
    await expect.poll(() => consoleBox(advisor).isDisabled()).toBe(true);
    await advisor.getByRole("button", { name: "Close chat" }).click();
    await advisor.getByText("No chat in view.").waitFor();
  });

  it("one advisor handles two simultaneous visitors, each message reaching only its own chat", async () => {
    const ada = await visitorAsksForAdvisor();
    const bob = await visitorAsksForAdvisor();
    const advisor = await advisorSignsIn();

    const accept = advisor.getByRole("button", { name: /Accept chat with/ });
    await expect.poll(() => accept.count(), { timeout: 15_000 }).toBe(2);
    await accept.first().click();
    await expect.poll(() => advisor.getByRole("tab").count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => accept.count(), { timeout: 15_000 }).toBe(1);
    await accept.first().click();
    await expect.poll(() => advisor.getByRole("tab").count(), { timeout: 15_000 }).toBe(2);

    for (const visitor of [ada, bob]) {
      await visitor.locator("chat-widget .event", { hasText: "Sam has joined the chat" }).waitFor();
      await expect.poll(() => widgetBox(visitor).isEnabled(), { timeout: 15_000 }).toBe(true);
    }
    const tabs = advisor.getByRole("tab");
    const [first, second] = [tabs.nth(0), tabs.nth(1)];

    // The second chat is in view; a message in the first counts as unread there.
    await expect.poll(() => second.getAttribute("aria-selected"), { timeout: 15_000 }).toBe("true");
    const inFirst = advisor.locator(".chat-view").getAttribute("id");
    const firstPanel = await first.getAttribute("aria-controls");
    expect(await inFirst).not.toBe(firstPanel);

    // Which visitor is which tab: the first accepted is the oldest in the queue (Ada).
    await widgetBox(ada).fill("Ada here");
    await widgetBox(ada).press("Enter");
    await widgetBox(bob).fill("Bob here");
    await widgetBox(bob).press("Enter");
    await transcript(advisor).locator(".message.customer", { hasText: "Bob here" }).waitFor();
    expect(await transcript(advisor).getByText("Ada here").count()).toBe(0);
    await expect.poll(() => first.locator(".unread").textContent(), { timeout: 15_000 }).toBe("1");

    await consoleBox(advisor).fill("Hello Bob");
    await consoleBox(advisor).press("Enter");
    await first.click();
    await expect.poll(() => first.locator(".unread").count()).toBe(0);
    await transcript(advisor).locator(".message.customer", { hasText: "Ada here" }).waitFor();
    await consoleBox(advisor).fill("Hello Ada");
    await consoleBox(advisor).press("Enter");

    await ada.locator("chat-widget .message.agent", { hasText: "Hello Ada" }).waitFor();
    await bob.locator("chat-widget .message.agent", { hasText: "Hello Bob" }).waitFor();
    expect(await ada.locator("chat-widget .message.agent", { hasText: "Hello Bob" }).count()).toBe(
      0,
    );
    expect(await bob.locator("chat-widget .message.agent", { hasText: "Hello Ada" }).count()).toBe(
      0,
    );
    await screenshot(advisor, "two-chats");
    await screenshot(ada, "visitor-ada");
    await screenshot(bob, "visitor-bob");

    // Both chats end, so the next test's advisor signs in with no chat of this one reopened.
    for (const [tab, visitor] of [
      [first, ada],
      [second, bob],
    ] as const) {
      await tab.click();
      await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
      await advisor.getByRole("button", { name: "End chat" }).click();
      await visitor.locator("chat-widget .event", { hasText: "Chat has ended!" }).waitFor();
    }
  });

  it("attachments go both ways: the advisor sends one the visitor downloads, and downloads the visitor's", async () => {
    const visitor = await visitorAsksForAdvisor();
    const advisor = await advisorSignsIn();
    const accept = advisor.getByRole("button", { name: /Accept chat with/ });
    await accept.waitFor({ timeout: 15_000 });
    await accept.click();
    // The file goes to the chat in view: the accepted one, the only one open.
    await expect.poll(() => advisor.getByRole("tab").count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => advisor.getByRole("tab").first().getAttribute("aria-selected"), {
        timeout: 15_000,
      })
      .toBe("true");
    await visitor.locator("chat-widget .event", { hasText: "Sam has joined the chat" }).waitFor();
    await expect.poll(() => widgetBox(visitor).isEnabled(), { timeout: 15_000 }).toBe(true);

    const invoice = "order,total\nA-10042,48.00\n";
    await advisor.getByLabel("Attachment file").setInputFiles({
      name: "invoice.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(invoice),
    });
    await transcript(advisor).getByRole("button", { name: "Download invoice.csv" }).waitFor();
    const link = visitor.locator("chat-widget .attachment button", { hasText: "invoice.csv" });
    await link.waitFor();
    await expect.poll(() => link.isEnabled()).toBe(true);
    const [visitorDownload] = await Promise.all([visitor.waitForEvent("download"), link.click()]);
    expect((await downloaded(visitorDownload)).toString("utf8")).toBe(invoice);

    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    await visitor
      .locator("chat-widget input[type=file]")
      .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
    const download = transcript(advisor).getByRole("button", { name: "Download photo.png" });
    await download.waitFor({ timeout: 15_000 });
    const [advisorDownload] = await Promise.all([
      advisor.waitForEvent("download"),
      download.click(),
    ]);
    expect(advisorDownload.suggestedFilename()).toBe("photo.png");
    expect(Buffer.compare(await downloaded(advisorDownload), png)).toBe(0);
    await expect.poll(() => advisor.locator(".transfers").count()).toBe(0);
    await screenshot(advisor, "attachments");
  });
});
