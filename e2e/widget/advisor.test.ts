/**
 * The widget with an advisor on the other side: the advisor joins, both directions of
 * messages, markdown rendered and inert, typing, delivered and read receipts, attachments both
 * ways.
 */
import { ContentType, ItemType } from "@chat-widget/protocol";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { downloaded } from "../support/chromium.js";
import { advisorTakes } from "./advisor.js";
import type { AdvisorChat } from "./advisor.js";
import { screenshot, setWidgetScript } from "./support.js";

let context: BrowserContext;
let page: Page;

const file = useBrowserFile();
beforeEach(async () => {
  context = await file.browser.newContext({
    viewport: { width: 1200, height: 800 },
    acceptDownloads: true,
  });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

const textbox = () => page.locator("chat-widget textarea");
const agentBubbles = () => page.locator("chat-widget .message.incoming.agent");

/** Open the widget, ask the bot for an advisor, and let the advisor take the chat. */
async function chatWithAdvisor(): Promise<AdvisorChat> {
  await page.goto(`${file.centre.url}/`);
  await page.locator("chat-widget button.launcher").click();
  const toAdvisor = page.locator("chat-widget button.option", { hasText: "Talk to an advisor" });
  await expect.poll(() => toAdvisor.isEnabled(), { timeout: 15_000 }).toBe(true);
  await toAdvisor.click();
  const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
  const contactId = (JSON.parse(stored ?? "{}") as { chat: { ContactId: string } }).chat.ContactId;
  const advisor = await advisorTakes(file.centre.url, contactId);
  await page
    .locator("chat-widget .event", { hasText: `${advisor.name} has joined the chat` })
    .waitFor();
  await expect.poll(() => textbox().isEnabled(), { timeout: 15_000 }).toBe(true);
  return advisor;
}

describe("the widget with an advisor", () => {
  it("the advisor joins; messages go both ways; markdown is rendered and HTML stays inert", async () => {
    const advisor = await chatWithAdvisor();
    await advisor.send(
      `**Hello**, I'm here to help <img src=x onerror="window.pwned=1">`,
      ContentType.TEXT_MARKDOWN,
    );
    const bubble = agentBubbles().filter({ hasText: "here to help" });
    await bubble.waitFor();
    expect(await bubble.locator("strong").textContent()).toBe("Hello");
    expect(await bubble.locator("img").count()).toBe(0);
    expect(await bubble.textContent()).toContain('<img src=x onerror="window.pwned=1">');
    await textbox().fill("My parcel is late");
    await textbox().press("Enter");
    await expect
      .poll(
        async () =>
          (await advisor.transcript()).some(
            (i) => i.ParticipantRole === "CUSTOMER" && i.Content === "My parcel is late",
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    await screenshot(page, "advisor-chat");
    // An advisor's Arabic message reads right to left, though the bubble starts with "Sam".
    await advisor.send("مرحبا، كيف يمكنني مساعدتك؟");
    const arabic = agentBubbles().filter({ hasText: "مرحبا" }).locator(".plain");
    await arabic.waitFor();
    expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  });

  it("the advisor's typing shows the dots and 'Sam is typing…'; a delivered receipt is sent for the advisor's message", async () => {
    const advisor = await chatWithAdvisor();
    // The dots show for 3 s: watch for them from before the event is sent.
    await Promise.all([
      page.locator("chat-widget .typing", { hasText: `${advisor.name} is typing…` }).waitFor(),
      advisor.event(ContentType.TYPING),
    ]);
    const sent = await advisor.send("Let me check");
    await agentBubbles().filter({ hasText: "Let me check" }).waitFor();
    await expect(page.locator("chat-widget .typing").count()).resolves.toBe(0);
    await expect
      .poll(
        async () =>
          (await advisor.transcript()).some(
            (i) =>
              i.Type === ItemType.MESSAGE_METADATA &&
              i.MessageMetadata?.MessageId === sent.Id &&
              !!i.MessageMetadata.Receipts?.[0]?.DeliveredTimestamp,
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
  });

  it("the visitor's last message shows Sent, then Delivered and Read as the advisor's receipts arrive (issue 24)", async () => {
    const advisor = await chatWithAdvisor();
    await textbox().fill("Is it shipped?");
    await textbox().press("Enter");
    const status = page.locator("chat-widget .delivery");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("Sent");
    const mine = (await advisor.transcript()).find((i) => i.Content === "Is it shipped?");
    expect(mine).toBeDefined();
    const messageId = JSON.stringify({ messageId: mine!.Id });
    await advisor.event(ContentType.DELIVERED_RECEIPT, messageId);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("Delivered");
    await advisor.event(ContentType.READ_RECEIPT, messageId);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("Read");
  });

  it("read receipts: a message read while the window is open is marked read; one sent while minimised only once the window is reopened", async () => {
    const advisor = await chatWithAdvisor();
    /** Each receipt is its own MESSAGE_METADATA item: which kinds the message has. */
    const receipts = async (id: string) => {
      const all = (await advisor.transcript())
        .filter((i) => i.Type === ItemType.MESSAGE_METADATA && i.MessageMetadata?.MessageId === id)
        .flatMap((i) => i.MessageMetadata?.Receipts ?? []);
      return {
        delivered: all.some((r) => !!r.DeliveredTimestamp),
        read: all.some((r) => !!r.ReadTimestamp),
      };
    };
    const seen = await advisor.send("Seen at once");
    await agentBubbles().filter({ hasText: "Seen at once" }).waitFor();
    await expect
      .poll(() => receipts(seen.Id), { timeout: 20_000, interval: 1000 })
      .toEqual({ delivered: true, read: true });

    await page.locator("chat-widget button[title='Minimise chat window']").click();
    const later = await advisor.send("Seen later");
    await expect
      .poll(async () => (await receipts(later.Id)).delivered, {
        timeout: 20_000,
        interval: 1000,
      })
      .toBe(true);
    expect((await receipts(later.Id)).read).toBe(false);
    await page.locator("chat-widget button.launcher").click();
    await agentBubbles().filter({ hasText: "Seen later" }).waitFor();
    await expect
      .poll(async () => (await receipts(later.Id)).read, { timeout: 20_000, interval: 1000 })
      .toBe(true);
  });

  it("data-unread-sound and data-title-flash on: an advisor's message while minimised chimes through Web Audio and the title takes turns; opening brings the title back", async () => {
    // The demo page's script tag given both settings as the parser inserts it; each tone the
    // page starts is counted, and the titles it shows are recorded.
    await page.addInitScript(() => {
      const w = window as unknown as { tones: number[]; titles: string[] };
      w.tones = [];
      w.titles = [];
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
        w.tones.push(this.frequency.value);
        return start.call(this, when);
      };
      let last = document.title;
      new MutationObserver(() => {
        if (document.title === last) return;
        last = document.title;
        w.titles.push(last);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await setWidgetScript(page, { dataset: { unreadSound: "on", titleFlash: "on" } });
    const advisor = await chatWithAdvisor();
    const title = await page.title();
    const seen = () =>
      page.evaluate(() => {
        const { tones, titles } = window as unknown as { tones: number[]; titles: string[] };
        return { tones, titles };
      });
    expect((await seen()).tones).toEqual([]);

    await page.locator("chat-widget button[title='Minimise chat window']").click();
    await advisor.send("Are you still there?");
    await expect.poll(async () => (await seen()).tones, { timeout: 15_000 }).toEqual([880, 660]);
    await expect
      .poll(async () => (await seen()).titles, { timeout: 15_000 })
      .toEqual(expect.arrayContaining(["1 new message", title]));
    await page.locator("chat-widget button.launcher").click();
    await agentBubbles().filter({ hasText: "Are you still there?" }).waitFor();
    await expect.poll(() => page.title()).toBe(title);
    expect((await seen()).tones).toHaveLength(2);
  });

  it("attachments: the visitor sends a file (button), the advisor's image shows a thumbnail and downloads", async () => {
    const advisor = await chatWithAdvisor();
    await page.locator("chat-widget input[type=file]").setInputFiles({
      name: "receipt.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 receipt"),
    });
    await page
      .locator("chat-widget .message.outgoing .attachment", { hasText: "receipt.pdf" })
      .waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () =>
          (await advisor.transcript()).some(
            (i) => i.Attachments?.[0]?.AttachmentName === "receipt.pdf",
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    // A real 1 × 1 PNG: its thumbnail decodes (a broken image has no natural width).
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await advisor.attach("label.png", "image/png", png);
    const link = page.locator("chat-widget .message.incoming .attachment button", {
      hasText: "label.png",
    });
    await expect.poll(() => link.isEnabled(), { timeout: 15_000 }).toBe(true);
    const thumbnail = page.locator("chat-widget .message.incoming img.thumbnail");
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 15_000,
      })
      .toBe(1);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("label.png");
    expect((await downloaded(download)).equals(png)).toBe(true);
  });
});

describe("ending the chat (issue 24)", () => {
  const closeIcon = () => page.locator("chat-widget button[title='Close chat window']");
  const inShadow = (name: string) => page.locator("chat-widget").getByRole("button", { name });

  it("the close icon asks first: Cancel keeps the chat going; End chat ends it for the advisor too", async () => {
    const advisor = await chatWithAdvisor();
    await closeIcon().click();
    await page
      .locator("chat-widget")
      .getByRole("alertdialog", { name: "End this chat?" })
      .waitFor();
    await inShadow("Cancel").click();
    await textbox().fill("Still here");
    await textbox().press("Enter");
    await expect
      .poll(async () => (await advisor.transcript()).some((i) => i.Content === "Still here"), {
        timeout: 15_000,
      })
      .toBe(true);
    await closeIcon().click();
    await inShadow("End chat").click();
    await page.locator("chat-widget button.launcher").waitFor();
    // The advisor's side is over too: its participant may no longer read the chat.
    await expect
      .poll(
        () =>
          advisor.transcript().then(
            () => "still open",
            (e: Error) => e.message,
          ),
        {
          timeout: 15_000,
        },
      )
      .toContain("The participant has left or the chat has ended.");
  });

  it("after the advisor ends the chat: the transcript downloads as text, and a new chat starts with the bot", async () => {
    const advisor = await chatWithAdvisor();
    await advisor.send("Your parcel left today");
    await agentBubbles().filter({ hasText: "Your parcel left today" }).waitFor();
    await advisor.end();
    await page.locator("chat-widget .event", { hasText: "Chat has ended!" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      inShadow("Download transcript").click(),
    ]);
    expect(download.suggestedFilename()).toBe("chat-transcript.txt");
    const text = (await downloaded(download)).toString("utf8");
    expect(text).toMatch(new RegExp(`^\\[.+\\] ${advisor.name}: Your parcel left today$`, "m"));
    expect(text).toMatch(/^\[.+\] You: Talk to an advisor$/m);
    expect(text).toMatch(/Chat has ended!\n$/);

    const before = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    await inShadow("Start a new chat").click();
    await page
      .locator("chat-widget button.option", { hasText: "Talk to an advisor" })
      .waitFor({ timeout: 15_000 });
    expect(await agentBubbles().count()).toBe(0);
    const after = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
  });
});
