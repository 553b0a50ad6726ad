/**
 * Issue 60 (4): Sam hands a chat to Kim from the real console with a note. The visitor's widget
 * shows the transfer line, Sam leaving and Kim joining; Sam's view says he transferred it and
 * takes no more messages; Kim's console opens the chat on its own with the whole history and
 * the note, and Kim's reply reaches the visitor; then Kim hands it back to the queue. axe-clean
 * with the dialog open, light and dark.
 */
import { afterEach, describe, expect, it } from "vitest";
import { violations } from "../support/axe.js";
import { useBrowserFile } from "../support/browser-file.js";
import { startContactCentre } from "../support/contact-centre.js";
import { People, consoleBox, consoleTranscript, widgetBox } from "../support/people.js";
import { screenshot } from "./support.js";

const ADMIN_TOKEN = "e2e-transfer-admin-token-0123456789abcd";
const file = useBrowserFile(() => startContactCentre(undefined, { env: { ADMIN_TOKEN } }));
const people = new People(file);
afterEach(() => people.closeAll());

/** Kim, a second advisor, through the admin API: her password. */
async function addKim(url: string): Promise<string> {
  const r = await fetch(url + "/admin-api/advisors", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ Username: "kim", Name: "Kim" }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { Password: string }).Password;
}

const BOUND = { timeout: 15_000 };

describe("transfer in the console (issue 60)", () => {
  it("Sam transfers to Kim with a note; the visitor sees it; Kim gets the chat, its history and the note", async () => {
    const password = await addKim(file.centre.url);
    const visitor = await people.visitorAsksForAdvisor();
    const sam = await people.advisorSignsIn();
    const kim = await people.advisorSignsIn(undefined, { username: "kim", password });
    await sam.getByRole("button", { name: /Accept chat with/ }).click(BOUND);
    await sam.getByText("Sam has joined the chat").waitFor(BOUND);
    await widgetBox(visitor).fill("My parcel never came");
    await widgetBox(visitor).press("Enter");
    await consoleTranscript(sam).getByText("My parcel never came").waitFor(BOUND);

    // A note mentioning Kim tells her console.
    await sam.getByRole("button", { name: "Note", exact: true }).click();
    const noteBox = sam.getByRole("textbox", { name: "Note" });
    await noteBox.fill("@kim can you take this one?");
    await noteBox.press("Enter");
    await kim
      .getByText("Sam mentioned you in a note: “@kim can you take this one?”")
      .waitFor(BOUND);
    await sam.getByRole("button", { name: "Reply", exact: true }).click();

    await sam.getByRole("button", { name: "Transfer", exact: true }).click();
    const dialog = sam.getByRole("dialog", { name: "Transfer the chat with Alex Morgan" });
    await dialog.getByRole("radio", { name: /^Kim 0 of \d+ chats$/ }).check(BOUND);
    await dialog.getByLabel("Note for the next advisor (optional)").fill("Wants a refund");
    for (const scheme of ["light", "dark"] as const) {
      await sam.emulateMedia({ colorScheme: scheme });
      expect(await violations(sam)).toEqual([]);
    }
    await sam.emulateMedia({ colorScheme: "light" });
    await screenshot(sam, "transfer");
    await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
    await dialog.waitFor({ state: "detached", ...BOUND });
    await sam.getByText("You transferred this chat.").waitFor(BOUND);
    expect(await consoleBox(sam).isDisabled()).toBe(true);

    const lines = visitor.locator("chat-widget .event");
    await visitor
      .locator("chat-widget .event", { hasText: "Kim has joined the chat" })
      .waitFor(BOUND);
    const shown = await lines.allTextContents();
    const at = (text: string) => shown.indexOf(text);
    expect(at("You are being transferred to another advisor")).toBeGreaterThan(-1);
    expect(at("Sam has left the chat")).toBeGreaterThan(
      at("You are being transferred to another advisor"),
    );
    expect(at("Kim has joined the chat")).toBeGreaterThan(at("Sam has left the chat"));

    // Kim's console opened the chat by itself: the visitor's words and Sam's note are there.
    await consoleTranscript(kim).getByText("My parcel never came").waitFor(BOUND);
    await consoleTranscript(kim).getByText("Transferred to Kim: Wants a refund").waitFor(BOUND);
    await consoleBox(kim).fill("Kim here, refund on its way");
    await consoleBox(kim).press("Enter");
    try {
      await visitor
        .locator("chat-widget .message.incoming", { hasText: "Kim here, refund on its way" })
        .waitFor({ timeout: 30_000 });
    } catch (error) {
      // What each side shows, to tell where the reply stopped.
      console.error("Kim's console:", await consoleTranscript(kim).innerText());
      console.error(
        "Visitor's widget:",
        await visitor
          .locator("chat-widget .messages, chat-widget [role=log]")
          .first()
          .innerText()
          .catch(() => "?"),
      );
      throw error;
    }

    // Kim hands it back to the queue: it waits there for the next advisor.
    await kim.getByRole("button", { name: "Transfer", exact: true }).click();
    const back = kim.getByRole("dialog", { name: "Transfer the chat with Alex Morgan" });
    await back.getByRole("radio", { name: /^The queue/ }).check(BOUND);
    await back.getByRole("button", { name: "Transfer", exact: true }).click();
    await kim.getByText("You transferred this chat.").waitFor(BOUND);
    await sam.getByRole("button", { name: /Accept chat with Alex Morgan/ }).waitFor(BOUND);
  });
});
