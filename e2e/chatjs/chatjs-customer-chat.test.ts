/**
 * Issue 3: the real amazon-connect-chatjs npm package, pointed at the local contact centre with
 * `ChatSession.setGlobalConfig({ endpoint, region })` (participant-protocol.md §2.5), chats
 * through it unchanged — driven in Chromium through a whole customer chat: the bot, messages,
 * typing, read receipts, the transcript, an advisor (agent API + our chat client in Node)
 * joining and writing, and the end of the chat.
 */
import { ContentType, ItemType } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { useChatjsFile } from "./support/chatjs-file.js";
import { Advisor } from "../../packages/server/test/client/support/http.js";
import { agentSession, type Recorder } from "../../packages/server/test/client/support/sessions.js";
import {
  chatjsEvents,
  chatjsItems,
  waitForChatjsEvent,
  waitForChatjsItem,
  watchPage,
  type PageLog,
} from "./support/browser.js";
import {
  chatjsSend,
  startChatjsChat,
  waitForTranscript,
  type PageWindow,
} from "./support/page-api.js";

const file = useChatjsFile();

describe("amazon-connect-chatjs 5 in Chromium against the local contact centre", () => {
  it("chats through a whole customer chat unchanged: bot, messages, typing, receipts, transcript, advisor, end", async () => {
    const page = await file.browser.newPage();
    const log: PageLog = watchPage(page);
    await page.goto(`${file.centre.pages.origin}/`);
    expect(
      await page.evaluate(() => typeof (window as unknown as { connect?: unknown }).connect),
    ).toBe("object");

    // Start the chat on the gateway (cross-origin: another port), then connect chatjs with
    // the endpoint override.
    expect(new URL(file.centre.pages.origin).port).not.toBe(new URL(file.centre.server.url).port);
    const started = await startChatjsChat(page, file.centre.server.url);
    expect(started.connectSuccess).toBe(true);
    const contactId = started.details.ContactId;

    // The flow greeted at start-chat, before chatjs connected: the history comes from
    // getTranscript with chatjs's defaults (15, BACKWARD, ASCENDING, StartPosition {}).
    const history = await waitForTranscript(page, (t) =>
      t.some((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE),
    );
    expect(history.data.InitialContactId).toBe(contactId);
    const greeting = history.data.Transcript.find(
      (i) => i.ParticipantRole === "SYSTEM" && i.ContentType === ContentType.TEXT_MARKDOWN,
    )!;
    expect(greeting.Content).toContain("Welcome");
    const picker = history.data.Transcript.find(
      (i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE,
    )!;
    expect(JSON.parse(picker.Content ?? "{}")).toMatchObject({ templateType: "ListPicker" });
    // The websocket chatjs opened is the one the service handed out: ws://127.0.0.1:<port>.
    const port = new URL(file.centre.server.url).port;
    expect(log.websockets.length).toBeGreaterThanOrEqual(1);
    for (const url of log.websockets) expect(url.startsWith(`ws://127.0.0.1:${port}/`)).toBe(true);

    // Typing and a read receipt from the customer are accepted.
    const typing = await page.evaluate(() =>
      (window as unknown as PageWindow).chat.session.sendEvent({
        contentType: "application/vnd.amazonaws.connect.event.typing",
      }),
    );
    expect(typing.data?.Id).toEqual(expect.any(String));
    const read = await page.evaluate(
      (messageId) =>
        (window as unknown as PageWindow).chat.session.sendEvent({
          contentType: "application/vnd.amazonaws.connect.event.message.read",
          content: JSON.stringify({ messageId }),
        }),
      picker.Id,
    );
    expect(read).toBeTruthy();

    // The customer's pick goes out and comes back once (own echo); the bot answers live
    // over the websocket, through onMessage.
    const returnsId = await chatjsSend(page, "Returns and refunds");
    const echo = await waitForChatjsItem(page, (i) => i.Id === returnsId);
    expect(echo).toMatchObject({
      ParticipantRole: "CUSTOMER",
      Content: "Returns and refunds",
      Type: ItemType.MESSAGE,
    });
    const answer = await waitForChatjsItem(
      page,
      (i) => i.ParticipantRole === "SYSTEM" && /30 days/.test(i.Content ?? ""),
    );
    expect(answer.ContactId).toBe(contactId);
    const again = await waitForChatjsItem(
      page,
      (i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE,
    );
    expect(JSON.parse(again.Content ?? "{}")).toMatchObject({
      templateType: "QuickReply",
      data: { content: { title: "Anything else about your return?" } },
    });
    const pickId = await chatjsSend(page, "Talk to an advisor");
    await waitForChatjsItem(
      page,
      (i) => i.ParticipantRole === "SYSTEM" && /Connecting you to an advisor/.test(i.Content ?? ""),
    );

    const transcript = await page.evaluate(() =>
      (window as unknown as PageWindow).chat.session.getTranscript({}),
    );
    const ids = transcript.data.Transcript.map((i) => i.Id);
    expect(ids).toEqual(
      expect.arrayContaining([greeting.Id, picker.Id, returnsId, answer.Id, pickId]),
    );
    expect(ids.indexOf(greeting.Id)).toBeLessThan(ids.indexOf(returnsId));
    expect(ids.indexOf(returnsId)).toBeLessThan(ids.indexOf(pickId));

    // An advisor signs in, accepts the contact and opens an AGENT session (our chat client).
    const advisor = await Advisor.signIn(file.centre.server.url);
    await advisor.waitForQueued(contactId);
    const accepted = await advisor.accept(contactId);
    const agent: Recorder = await agentSession(file.centre.server.url, advisor, accepted);
    expect((await agent.session.connect()).connectSuccess).toBe(true);
    const joined = await waitForChatjsItem(
      page,
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
    );
    expect(joined.DisplayName).toBe("Sam");

    // The customer sees the advisor typing and writing.
    await agent.session.sendEvent({ contentType: ContentType.TYPING });
    const agentTyping = await waitForChatjsItem(
      page,
      (i) => i.ParticipantRole === "AGENT",
      "typing",
    );
    expect(agentTyping.DisplayName).toBe("Sam");
    const hello = await agent.session.sendMessage({
      message: "Hi, I'm Sam. How can I help?",
      contentType: "text/plain",
    });
    const seen = await waitForChatjsItem(page, (i) => i.Id === hello.data.Id);
    expect(seen).toMatchObject({
      ParticipantRole: "AGENT",
      DisplayName: "Sam",
      Content: "Hi, I'm Sam. How can I help?",
    });

    // The customer's messages reach the advisor; receipts cross in both directions. chatjs sends
    // every read receipt with the ClientToken "INCOMING_READ_RECEIPT" (docs/protocol.md §4.4): this
    // second one (the first was for the list picker) must not be taken for a replay.
    const reply = await chatjsSend(page, "My parcel has not arrived");
    await agent.waitForItem((i) => i.Id === reply);
    await page.evaluate(
      (messageId) =>
        (window as unknown as PageWindow).chat.session.sendEvent({
          contentType: "application/vnd.amazonaws.connect.event.message.read",
          content: JSON.stringify({ messageId }),
        }),
      hello.data.Id,
    );
    const readByCustomer = await agent.waitForItem(
      (i) => i.MessageMetadata?.MessageId === hello.data.Id,
      "readReceipt",
    );
    expect(readByCustomer.MessageMetadata?.Receipts?.[0]?.RecipientParticipantId).toBe(
      started.details.ParticipantId,
    );
    await agent.session.sendMessageReceipt({
      contentType: ContentType.DELIVERED_RECEIPT,
      messageId: reply,
      disableThrottle: true,
    });
    const delivered = await waitForChatjsItem(
      page,
      (i) => i.MessageMetadata?.MessageId === reply,
      "deliveredReceipt",
    );
    expect(delivered.MessageMetadata?.Receipts?.[0]?.RecipientParticipantId).toBe(
      accepted.ParticipantId,
    );

    // The customer leaves: chatjs gets participant.left and chat.ended, then onEnded.
    await page.evaluate(() =>
      (window as unknown as PageWindow).chat.session.disconnectParticipant(),
    );
    await waitForChatjsEvent(page, "ended");
    const contentTypes = (await chatjsItems(page)).map((i) => i.ContentType);
    expect(contentTypes).toContain(ContentType.PARTICIPANT_LEFT);
    expect(contentTypes).toContain(ContentType.CHAT_ENDED);
    await agent.waitForEvent("ended");

    // chatjs signed every call with empty credentials (dummy SigV4) and the server accepted them.
    expect(log.participantHeaders.length).toBeGreaterThan(5);
    for (const headers of log.participantHeaders) {
      expect(headers["x-amz-bearer"]).toEqual(expect.any(String));
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=\/\d{8}\/eu-west-2\/execute-api\/aws4_request/,
      );
      expect(headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    }
    // Nothing twice: every item reached onMessage once.
    const delivered1 = (await chatjsItems(page)).map((i) => i.Id);
    expect(new Set(delivered1).size).toBe(delivered1.length);
    // Nothing left the machine (telemetry is off with disableCSM), nothing failed in the page.
    for (const request of log.requests)
      expect(request).toMatch(/^[A-Z]+ (http|ws):\/\/127\.0\.0\.1:\d+\//);
    expect(log.errors).toEqual([]);
    expect((await chatjsEvents(page)).some((e) => e.kind === "connectionBroken")).toBe(false);
    await page.close();
  }, 120_000);

  it("sends an attachment through chatjs (upload PUT to the signed URL, cross-origin) and downloads it again", async () => {
    const page = await file.browser.newPage();
    const log: PageLog = watchPage(page);
    await page.goto(`${file.centre.pages.origin}/`);
    expect((await startChatjsChat(page, file.centre.server.url)).connectSuccess).toBe(true);
    await waitForChatjsEvent(page, "deepHeartbeatSuccess");

    const text = "order,amount\nA-10042,19.99\n";
    await page.evaluate(
      ([t]) => (window as unknown as PageWindow).chat.sendFile("order.csv", "text/csv", t),
      [text] as const,
    );
    const item = await waitForChatjsItem(page, (i) => i.Type === ItemType.ATTACHMENT);
    expect(item.ParticipantRole).toBe("CUSTOMER");
    const attachment = item.Attachments?.[0];
    expect(attachment).toMatchObject({
      AttachmentName: "order.csv",
      ContentType: "text/csv",
      Status: "APPROVED",
    });
    const downloaded = await page.evaluate(
      (id) => (window as unknown as PageWindow).chat.download(id),
      attachment!.AttachmentId,
    );
    expect(downloaded).toEqual({ text, size: new TextEncoder().encode(text).length });
    expect(
      log.requests.some(
        (r) => r.startsWith("PUT ") && r.includes(new URL(file.centre.server.url).host),
      ),
    ).toBe(true);
    expect(log.errors).toEqual([]);
    await page.close();
  }, 120_000);
});
