/**
 * Issue 2: our chat client's CUSTOMER session over loopback against the real contact centre
 * (gateway start-chat, the default flow's bot, the participant service and its websocket),
 * on PGlite and on PostgreSQL.
 */
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  STARTUP_MS,
  startContactCentre,
  type ContactCentreServer,
} from "./support/contact-centre.js";
import { ENGINES, type Engine } from "../support/databases.js";
import { startChat } from "./support/http.js";
import { customerSession, isBot, type Recorder } from "./support/sessions.js";

let server: ContactCentreServer;

async function connectedCustomer(name = "Customer"): Promise<Recorder> {
  const chat = await startChat(server.url, name);
  const customer = await customerSession(server.url, chat);
  const result = await customer.session.connect();
  expect(result.connectSuccess).toBe(true);
  return customer;
}

/** Waits until the flow has asked its first question (the list picker), so it is quiet. */
const waitForPicker = (customer: Recorder) =>
  customer.waitForItem((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(ENGINES)("customer session against the contact centre on %s", (engine: Engine) => {
  beforeAll(async () => {
    server = await startContactCentre({ engine });
  }, STARTUP_MS);
  afterAll(async () => {
    await server?.close();
  });

  it("connects, receives the bot's greeting and list picker, and gets its own message once", async () => {
    const customer = await connectedCustomer();
    const joined = await customer.waitForItem(
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "CUSTOMER",
    );
    expect(joined.DisplayName).toBe("Customer");
    const greeting = await customer.waitForItem(
      (i) => isBot(i) && i.ContentType === ContentType.TEXT_MARKDOWN,
    );
    expect(greeting.Content).toContain("Welcome");
    const picker = await waitForPicker(customer);
    expect(picker).toMatchObject({ ParticipantRole: "SYSTEM", DisplayName: "BOT" });
    expect(JSON.parse(picker.Content ?? "{}")).toMatchObject({ templateType: "ListPicker" });

    const sent = await customer.session.sendMessage({
      message: "hello there",
      contentType: "text/plain",
    });
    expect(sent.data.Id).toEqual(expect.any(String));
    await customer.waitForItem((i) => i.Id === sent.data.Id);
    // The websocket echoes the customer's own message; the session still delivers it once.
    await settle();
    expect(customer.items().filter((i) => i.Id === sent.data.Id)).toHaveLength(1);
    expect(customer.items().find((i) => i.Id === sent.data.Id)).toMatchObject({
      Content: "hello there",
      ContentType: "text/plain",
      ParticipantRole: "CUSTOMER",
      Type: ItemType.MESSAGE,
    });
    const ids = customer.items().map((i) => i.Id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("picking a bot option gets the bot's answer", async () => {
    const customer = await connectedCustomer();
    await waitForPicker(customer);
    await customer.session.sendMessage({
      message: "Returns and refunds",
      contentType: "text/plain",
    });
    const answer = await customer.waitForItem((i) => isBot(i) && /30 days/.test(i.Content ?? ""));
    expect(answer.ContentType).toBe(ContentType.TEXT_MARKDOWN);
  });

  it("sends typing and a read receipt that the server accepts", async () => {
    const customer = await connectedCustomer();
    const picker = await waitForPicker(customer);
    const typing = await customer.session.sendEvent({ contentType: ContentType.TYPING });
    expect((typing as { data: { Id: string } }).data.Id).toEqual(expect.any(String));
    const receipt = await customer.session.sendMessageReceipt({
      contentType: ContentType.READ_RECEIPT,
      messageId: picker.Id,
      disableThrottle: true,
    });
    expect(receipt).toHaveProperty("data");
    // A second receipt for the same message is not sent again.
    await expect(
      customer.session.sendMessageReceipt({
        contentType: ContentType.READ_RECEIPT,
        messageId: picker.Id,
        disableThrottle: true,
      }),
    ).resolves.toEqual({ message: "Event already fired" });
  });

  it("getTranscript pages backward through the whole chat, newest page first, each page ascending", async () => {
    const customer = await connectedCustomer();
    await waitForPicker(customer);
    // "note 1" is none of the picker's options: the bot routes the chat to an advisor and says
    // so, after which the flow ignores the rest. Once the contact has heard its place in the
    // queue, the transcript is still.
    for (let n = 1; n <= 7; n++) {
      await customer.session.sendMessage({ message: `note ${n}`, contentType: "text/plain" });
    }
    await customer.waitForItem((i) => isBot(i) && i.Content === "Connecting you to an advisor…");
    // The contact waits in the queue and hears its place, said after the bot's words.
    await customer.waitForItem((i) =>
      /^You are number \*\*\d+\*\* in the queue\.$/.test(i.Content ?? ""),
    );
    const all = await customer.session.getTranscript({ maxResults: 100 });
    const full = all.data.Transcript;
    expect(all.data.InitialContactId).toBe(customer.session.getChatDetails().initialContactId);
    expect(full.filter((i) => i.Content?.startsWith("note ")).map((i) => i.Content)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => `note ${n}`),
    );
    // The defaults: 15 items, BACKWARD, ASCENDING.
    const first = await customer.session.getTranscript();
    expect(first.data.Transcript).toEqual(full.slice(-15));

    const pages: Item[][] = [];
    let nextToken: string | undefined;
    do {
      const page = await customer.session.getTranscript({
        maxResults: 4,
        ...(nextToken ? { nextToken } : {}),
      });
      pages.push(page.data.Transcript);
      nextToken = page.data.NextToken;
      expect(pages.length).toBeLessThan(20);
    } while (nextToken);
    expect(pages[0]).toEqual(full.slice(-4));
    expect(
      pages
        .reverse()
        .flat()
        .map((i) => i.Id),
    ).toEqual(full.map((i) => i.Id));

    const forward = await customer.session.getTranscript({
      scanDirection: "FORWARD",
      startPosition: { id: full[1]!.Id },
      maxResults: 3,
    });
    expect(forward.data.Transcript.map((i) => i.Id)).toEqual(full.slice(1, 4).map((i) => i.Id));
  });

  it("an attachment makes the round trip: upload, ATTACHMENT item, download of the same bytes", async () => {
    const customer = await connectedCustomer();
    await waitForPicker(customer);
    const bytes = new TextEncoder().encode("order,amount\nA-10042,19.99\n");
    const file = new File([bytes], "receipt.csv", { type: "text/csv" });
    const sent = await customer.session.sendAttachment({ attachment: file });
    const attachmentId = sent.data.AttachmentId;
    expect(attachmentId).toEqual(expect.any(String));

    const item = await customer.waitForItem(
      (i) => i.Type === ItemType.ATTACHMENT && i.Attachments?.[0]?.AttachmentId === attachmentId,
    );
    expect(item.Attachments?.[0]).toMatchObject({
      AttachmentName: "receipt.csv",
      ContentType: "text/csv",
      Status: "APPROVED",
    });
    const blob = await customer.session.downloadAttachment({ attachmentId });
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
  });

  it("disconnecting the participant ends the chat: participant left, chat ended, later calls rejected", async () => {
    const customer = await connectedCustomer();
    await waitForPicker(customer);
    const before = await customer.session.getTranscript({ maxResults: 100 });
    await customer.session.disconnectParticipant();
    await expect(
      customer.session.sendMessage({ message: "anyone?", contentType: "text/plain" }),
    ).rejects.toThrow(/No active connection/);
    // The server recorded the end: a new connection for this participant is refused (403).
    const chat = customer.session.getChatDetails();
    const retry = await fetch(`${server.url}/participant/connection`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-amz-bearer": chat.participantToken! },
      body: JSON.stringify({ Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] }),
    });
    expect(retry.status).toBe(403);
    expect(before.data.Transcript.length).toBeGreaterThan(0);
  });

  it("the customer's session gets chat.ended (onMessage then onEnded) after disconnectParticipant", async () => {
    const customer = await connectedCustomer();
    await waitForPicker(customer);
    await customer.session.disconnectParticipant();
    // Protocol §1.9: the service emits participant.left and chat.ended to the disconnecting
    // participant's websocket too, and chatjs ≥ 4 waits for chat.ended before tearing down.
    await customer.waitForEvent("ended", 1, 5000);
    expect(customer.items().map((i) => i.ContentType)).toEqual(
      expect.arrayContaining([ContentType.PARTICIPANT_LEFT, ContentType.CHAT_ENDED]),
    );
  });
});
