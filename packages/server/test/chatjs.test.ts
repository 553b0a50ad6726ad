import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageStream } from "../src/contact-centre/message-stream.js";
import type { NewParticipant } from "../src/contact-centre/types.js";
import { loadChatjs } from "./support/chatjs.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

/* eslint-disable @typescript-eslint/no-explicit-any */

describe("amazon-connect-chatjs 5.0.0 against the local participant service", () => {
  let server: TestServer;
  let connect: any;

  beforeAll(async () => {
    server = await startServer("postgres");
    connect = await loadChatjs();
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  /** chatjs pointed at the local service, and a CUSTOMER session of the chat. */
  function customerSession(chat: NewParticipant): any {
    connect.ChatSession.setGlobalConfig({
      region: "us-west-2",
      endpoint: server.url,
      loggerConfig: { level: "ERROR" },
    });
    return connect.ChatSession.create({
      chatDetails: {
        ContactId: chat.contactId,
        ParticipantId: chat.participantId,
        ParticipantToken: chat.participantToken,
      },
      type: "CUSTOMER",
      options: { region: "us-west-2" },
      disableCSM: true,
    });
  }

  /** Polls every 50 ms, `tries` times at most, then asserts the condition. */
  async function waitFor(cond: () => boolean, tries: number): Promise<void> {
    for (let i = 0; i < tries && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(cond()).toBe(true);
  }

  it("connects, sends and receives messages, typing, a read receipt and an attachment, reads the transcript, and ends with chat.ended after disconnect", async () => {
    const chat = await server.startChat();
    const agent = await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const session = customerSession(chat);
    const messages: any[] = [];
    let ended = false;
    session.onMessage((e: any) => messages.push(e.data));
    session.onEnded(() => {
      ended = true;
    });
    const result = await session.connect();
    expect(result.connectSuccess).toBe(true);
    const sent = await session.sendMessage({
      contentType: "text/plain",
      message: "hello from chatjs",
    });
    const until = (cond: () => boolean) => waitFor(cond, 100);
    await until(() => messages.some((m) => m.Id === sent.data.Id));
    await server.built.deps.centre.postMessage(chat.contactId, agent.participantId, {
      contentType: "text/plain",
      content: "hi, Sam here",
    });
    await until(() => messages.some((m) => m.Content === "hi, Sam here"));
    const typing: any[] = [];
    session.onTyping((e: any) => typing.push(e.data));
    await server.built.deps.centre.postEvent(chat.contactId, agent.participantId, {
      contentType: "application/vnd.amazonaws.connect.event.typing",
    });
    await until(() => typing.some((t) => t.ParticipantRole === "AGENT"));
    const samMessage = messages.find((m) => m.Content === "hi, Sam here");
    const receipt = await session.sendEvent({
      contentType: "application/vnd.amazonaws.connect.event.message.read",
      content: JSON.stringify({ messageId: samMessage.Id, disableThrottle: true }),
    });
    expect(receipt.data.Id).toBeTruthy();
    const attachment = new File([Buffer.from("%PDF-1.4 test")], "invoice.pdf", {
      type: "application/pdf",
    });
    await session.sendAttachment({ attachment });
    await until(() => messages.some((m) => m.Type === "ATTACHMENT"));
    const attachmentItem = messages.find((m) => m.Type === "ATTACHMENT");
    const blob = await session.downloadAttachment({
      attachmentId: attachmentItem.Attachments[0].AttachmentId,
    });
    expect(await blob.text()).toBe("%PDF-1.4 test");
    const transcript = await session.getTranscript({ maxResults: 15, sortOrder: "ASCENDING" });
    expect(
      transcript.data.Transcript.filter((i: any) => i.Type === "MESSAGE").map(
        (i: any) => i.Content,
      ),
    ).toEqual(["hello from chatjs", "hi, Sam here"]);
    await session.disconnectParticipant();
    await until(() => ended);
  });

  it("receives a streamed answer stitched (issue 26): the text so far under one Id, then the completed message", async () => {
    const chat = await server.startChat();
    const centre = server.built.deps.centre;
    const bot = await centre.addParticipant(chat.contactId, "SYSTEM", "Shop assistant");
    const session = customerSession(chat);
    const messages: any[] = [];
    session.onMessage((e: any) => messages.push(e.data));
    expect((await session.connect()).connectSuccess).toBe(true);
    const stream = new MessageStream(centre, chat.contactId, bot.participantId, {
      contentType: "text/plain",
      displayName: "BOT",
    });
    const until = (cond: () => boolean) => waitFor(cond, 200);
    const ofStream = () => messages.filter((m) => m.Id === stream.id);
    // Chunks are not stored: stream once the socket is subscribed (its own message came back).
    const sent = await session.sendMessage({ contentType: "text/plain", message: "When?" });
    await until(() => messages.some((m) => m.Id === sent.data.Id));
    for (const [n, piece] of ["Our shop ", "opens at ", "nine."].entries()) {
      await stream.append(piece);
      await until(() => ofStream().length === n + 1);
    }
    await stream.complete();
    await until(() => ofStream().some((m) => m.MessageMetadata?.MessageCompleted === true));
    expect(ofStream().map((m) => m.Content)).toEqual([
      "Our shop ",
      "Our shop opens at ",
      "Our shop opens at nine.",
      "Our shop opens at nine.",
    ]);
    await session.disconnectParticipant();
  });
});
