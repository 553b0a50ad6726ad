import { afterEach, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { ContentType, type Item } from "@chat-widget/protocol";
import { ChatSession } from "./chat-session.js";
import type { WebSocketConstructor } from "../env.js";
import {
  startLoopbackParticipantServer,
  type LoopbackParticipantServer,
} from "../test-support/loopback-participant-server.js";

let server: LoopbackParticipantServer | undefined;
let session: ChatSession | undefined;

afterEach(async () => {
  await session?.disconnectParticipant().catch(() => {});
  await server?.close();
  server = undefined;
  session = undefined;
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("customer session over loopback against a real HTTP + ws participant service", () => {
  it("connects, sends, receives, reconnects and repairs gaps from the transcript with no duplicates", async () => {
    server = await startLoopbackParticipantServer({ contactId: "loopback-contact" });
    server.addEvent(ContentType.PARTICIPANT_JOINED, {
      ParticipantRole: "CUSTOMER",
      DisplayName: "Customer",
    });
    server.agentSays("Welcome! (sent before the socket opened)", false);
    ChatSession.setGlobalConfig({ endpoint: server.url });
    session = ChatSession.create({
      chatDetails: server.chatDetails,
      type: "CUSTOMER",
      env: { WebSocket: WsWebSocket as unknown as WebSocketConstructor },
    });
    const received: Item[] = [];
    let established = 0;
    let lost = 0;
    session.onMessage((e) => received.push(e.data));
    session.onConnectionEstablished(() => established++);
    session.onConnectionLost(() => lost++);

    const result = await session.connect();
    expect(result.connectSuccess).toBe(true);
    await waitFor(
      () => established === 2 && received.length === 2,
      "the websocket and the first transcript read",
    );
    expect(received.map((i) => i.ContentType)).toEqual([
      ContentType.PARTICIPANT_JOINED,
      ContentType.TEXT_PLAIN,
    ]);

    // Receive live, send (own echo arrives too).
    const live = server.agentSays("How can I help?");
    await waitFor(() => received.some((i) => i.Id === live.Id), "a live agent message");
    const sent = await session.sendMessage({
      message: "Where is my order?",
      contentType: "text/plain",
    });
    await waitFor(
      () => server!.transcript.some((i) => i.Id === sent.data.Id),
      "the stored customer message",
    );

    // Network drop: while the client cannot reconnect, the agent writes three messages.
    server.holdConnections();
    server.dropSockets();
    await waitFor(() => lost === 1, "connection lost");
    const missed = [
      server.agentSays("one", false),
      server.agentSays("two", false),
      server.agentSays("three", false),
    ];
    server.releaseConnections();
    await waitFor(() => established === 3, "the reconnection");
    await waitFor(
      () => missed.every((m) => received.some((i) => i.Id === m.Id)),
      "the missed messages",
    );
    const after = server.agentSays("after the reconnect");
    await waitFor(
      () => received.some((i) => i.Id === after.Id),
      "a live message after the reconnect",
    );

    const ids = received.map((i) => i.Id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(server.transcript.map((i) => i.Id));
    expect(received.map((i) => i.Content ?? i.ContentType)).toEqual([
      ContentType.PARTICIPANT_JOINED,
      "Welcome! (sent before the socket opened)",
      "How can I help?",
      "Where is my order?",
      "one",
      "two",
      "three",
      "after the reconnect",
    ]);
    expect(
      server.requests.filter((r) => r.path === "/participant/transcript").at(-1)!.body,
    ).toMatchObject({
      ScanDirection: "FORWARD",
      StartPosition: { Id: sent.data.Id },
    });
  });

  it("a chat that ended while the customer was offline is detected: the reconnect's 403 becomes chat ended", async () => {
    server = await startLoopbackParticipantServer({ contactId: "loopback-contact-3" });
    ChatSession.setGlobalConfig({ endpoint: server.url });
    session = ChatSession.create({
      chatDetails: server.chatDetails,
      type: "CUSTOMER",
      env: { WebSocket: WsWebSocket as unknown as WebSocketConstructor },
    });
    let established = 0;
    const events: string[] = [];
    session.onConnectionEstablished(() => established++);
    session.onMessage((e) => events.push(`message ${e.data.ContentType} id="${e.data.Id}"`));
    session.onEnded(() => events.push("ended"));
    session.onConnectionBroken(() => events.push("broken"));
    await session.connect();
    await waitFor(() => established === 2, "the websocket");
    server.holdConnections();
    server.dropSockets();
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.endChat();
    server.releaseConnections();
    await waitFor(() => events.includes("ended"), "the chat to end");
    expect(events).toEqual([`message ${ContentType.CHAT_ENDED} id=""`, "ended"]);
    expect(session.getConnectionStatus()).toBe("Ended");
  });

  it("disconnecting delivers nothing more and the server sees the disconnect", async () => {
    server = await startLoopbackParticipantServer({ contactId: "loopback-contact-2" });
    ChatSession.setGlobalConfig({ endpoint: server.url });
    session = ChatSession.create({
      chatDetails: server.chatDetails,
      type: "CUSTOMER",
      env: { WebSocket: WsWebSocket as unknown as WebSocketConstructor },
    });
    let established = 0;
    session.onConnectionEstablished(() => established++);
    await session.connect();
    await waitFor(() => established === 2, "the websocket");
    await session.disconnectParticipant();
    expect(server.requests.map((r) => r.path)).toContain("/participant/disconnect");
    await waitFor(() => server!.openSockets === 0, "the socket to close");
    await expect(session.sendMessage({ message: "x", contentType: "text/plain" })).rejects.toThrow(
      "Failed to call sendMessage, No active connection",
    );
  });
});
