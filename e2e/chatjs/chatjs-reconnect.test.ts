/**
 * Issue 3, participant-protocol.md §2.5 and §3.8: the real amazon-connect-chatjs reconnects on
 * its own when the server drops its websocket — it asks CreateParticipantConnection for a fresh
 * ws://127.0.0.1:<port> URL, subscribes again and keeps chatting — and after an advisor ends
 * the chat it gets chat.ended and onEnded.
 */
import { AgentApiPath, ContentType, ItemType, agentContactPath } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { useChatjsFile } from "./support/chatjs-file.js";
import { Advisor, json } from "../../packages/server/test/client/support/http.js";
import {
  chatjsEvents,
  waitForChatjsEvent,
  waitForChatjsItem,
  watchPage,
} from "./support/browser.js";
import { chatjsSend, startChatjsChat, waitForTranscript } from "./support/page-api.js";

const file = useChatjsFile();

describe("amazon-connect-chatjs 5 in Chromium: connection loss and the end of the chat", () => {
  it("reconnects with a fresh websocket URL after the server drops its socket, and gets onEnded when the advisor ends the chat", async () => {
    const page = await file.browser.newPage();
    const log = watchPage(page);
    await page.goto(`${file.centre.pages.origin}/`);
    const started = await startChatjsChat(page, file.centre.server.url);
    expect(started.connectSuccess).toBe(true);
    const contactId = started.details.ContactId;
    await waitForTranscript(page, (t) =>
      t.some((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE),
    );
    await waitForChatjsEvent(page, "deepHeartbeatSuccess");
    expect(log.websockets).toHaveLength(1);

    // The server loses the socket: chatjs reports the loss and reconnects by itself.
    for (const socket of file.centre.server.built.app.websocketServer.clients) socket.terminate();
    await waitForChatjsEvent(page, "connectionLost");
    const deadline = Date.now() + 15_000;
    while (
      (await chatjsEvents(page)).filter((e) => e.kind === "connectionEstablished").length < 3
    ) {
      if (Date.now() > deadline) throw new Error("chatjs did not reconnect");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(log.websockets).toHaveLength(2);
    const port = new URL(file.centre.server.url).port;
    for (const url of log.websockets) expect(url.startsWith(`ws://127.0.0.1:${port}/`)).toBe(true);
    expect(log.websockets[1]).not.toBe(log.websockets[0]);

    // The chat goes on over the new socket: the bot answers live.
    const id = await chatjsSend(page, "Talk to an advisor");
    await waitForChatjsItem(page, (i) => i.Id === id);
    await waitForChatjsItem(
      page,
      (i) => i.ParticipantRole === "SYSTEM" && /Connecting you to an advisor/.test(i.Content ?? ""),
    );

    // The advisor accepts and ends the chat from the agent API: chatjs sees the end.
    const advisor = await Advisor.signIn(file.centre.server.url);
    await advisor.waitForQueued(contactId);
    await advisor.accept(contactId);
    await waitForChatjsItem(
      page,
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
    );
    await json(file.centre.server.url, agentContactPath(AgentApiPath.End, contactId), {
      method: "POST",
      token: advisor.token,
    });
    const ended = await waitForChatjsItem(page, (i) => i.ContentType === ContentType.CHAT_ENDED);
    expect(ended.Type).toBe(ItemType.EVENT);
    await waitForChatjsEvent(page, "ended");
    expect((await chatjsEvents(page)).some((e) => e.kind === "connectionBroken")).toBe(false);
    expect(log.errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("a chat that ended while the connection was lost: the reconnect is refused with 403 and chatjs ends the session (onEnded)", async () => {
    const page = await file.browser.newPage();
    const log = watchPage(page);
    await page.goto(`${file.centre.pages.origin}/`);
    const started = await startChatjsChat(page, file.centre.server.url);
    const contactId = started.details.ContactId;
    await waitForChatjsEvent(page, "deepHeartbeatSuccess");

    // Hold chatjs's next CreateParticipantConnection until the chat has ended.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const statuses: number[] = [];
    await page.route("**/participant/connection", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      held++;
      await released;
      const response = await route.fetch();
      statuses.push(response.status());
      await route.fulfill({ response });
    });
    for (const socket of file.centre.server.built.app.websocketServer.clients) socket.terminate();
    await waitForChatjsEvent(page, "connectionLost");
    const deadline = Date.now() + 10_000;
    while (held === 0) {
      if (Date.now() > deadline) throw new Error("chatjs did not ask for a new connection");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await file.centre.server.built.deps.centre.endContact(contactId);
    release();

    await waitForChatjsEvent(page, "ended");
    const ended = await waitForChatjsItem(page, (i) => i.ContentType === ContentType.CHAT_ENDED);
    // chatjs's synthetic chat-ended item (docs/protocol.md §3.10): empty Id.
    expect(ended.Id).toBe("");
    expect((await chatjsEvents(page)).some((e) => e.kind === "connectionBroken")).toBe(false);
    expect(statuses).toEqual([403]);
    // The refused reconnect is the only error the page reports.
    expect(log.errors.filter((e) => !/403/.test(e))).toEqual([]);
    await page.close();
  }, 120_000);
});
