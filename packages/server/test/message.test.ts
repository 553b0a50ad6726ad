import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatWithAdvisor } from "./support/chat.js";
import { call, connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { SendMessage, GetTranscript } = ParticipantPath;

describe.each(ENGINES)("SendMessage (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("commits the message and delivers it on aws/chat to every participant, the sender included, with ContactId and InitialContactId", async () => {
    const chat = await chatWithAdvisor(server);
    const r = await call<{ Id: string; AbsoluteTime: string }>(
      server.url,
      SendMessage,
      chat.customer.connectionToken,
      { ContentType: "text/plain", Content: "My order has not arrived", ClientToken: "c-1" },
    );
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["AbsoluteTime", "Id"]);
    for (const side of [chat.customer, chat.advisor]) {
      const item = await side.socket.waitForItem((i) => i.Id === r.body.Id);
      expect(item).toMatchObject({
        Id: r.body.Id,
        AbsoluteTime: r.body.AbsoluteTime,
        Type: "MESSAGE",
        ContentType: "text/plain",
        Content: "My order has not arrived",
        ParticipantId: chat.customer.participant.participantId,
        DisplayName: "Customer",
        ParticipantRole: "CUSTOMER",
        ContactId: chat.contactId,
        InitialContactId: chat.contactId,
      });
      const frame = side.socket.frames.find(
        (f) => typeof f.content === "string" && f.content.includes(r.body.Id),
      );
      expect(frame).toMatchObject({ topic: "aws/chat", contentType: "application/json" });
      expect(typeof frame?.content).toBe("string");
    }
    const transcript = await call<{ Transcript: { Id: string }[] }>(
      server.url,
      GetTranscript,
      chat.advisor.connectionToken,
      {},
    );
    expect(transcript.body.Transcript.map((i) => i.Id)).toContain(r.body.Id);
    chat.closeSockets();
  });

  it("delivers messages in the order they were committed", async () => {
    const chat = await chatWithAdvisor(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call<{ Id: string }>(server.url, SendMessage, chat.advisor.connectionToken, {
        ContentType: "text/plain",
        Content: `m${i}`,
      });
      ids.push(r.body.Id);
    }
    await chat.customer.socket.waitForItem((i) => i.Id === ids[4]);
    const seen = chat.customer.socket
      .items()
      .filter((i) => i.Type === "MESSAGE")
      .map((i) => i.Id);
    expect(seen).toEqual(ids);
    chat.closeSockets();
  });

  it("a repeated ClientToken with the same content returns the first message and records nothing new", async () => {
    const chat = await chatWithAdvisor(server);
    const body = { ContentType: "text/plain", Content: "once", ClientToken: "retry-1" };
    const first = await call<{ Id: string; AbsoluteTime: string }>(
      server.url,
      SendMessage,
      chat.customer.connectionToken,
      body,
    );
    const again = await call<{ Id: string; AbsoluteTime: string }>(
      server.url,
      SendMessage,
      chat.customer.connectionToken,
      body,
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const t = await call<{ Transcript: { Content?: string }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100 },
    );
    expect(t.body.Transcript.filter((i) => i.Content === "once")).toHaveLength(1);
    chat.closeSockets();
  });

  it("a repeated ClientToken answers the first message and is not published again to a socket that had it: once in the transcript, once on a raw websocket (issue 58)", async () => {
    const chat = await chatWithAdvisor(server);
    const body = { ContentType: "text/plain", Content: "once only", ClientToken: "repeat-58" };
    const send = (content: typeof body) =>
      call<{ Id: string }>(server.url, SendMessage, chat.customer.connectionToken, content);
    const first = await send(body);
    await chat.advisor.socket.waitForItem((i) => i.Id === first.body.Id);
    const retried = await send(body);
    expect(retried.body).toEqual(first.body);
    // A later message marks the point by which a second publish would have arrived.
    const later = await send({ ...body, Content: "after", ClientToken: "repeat-58-later" });
    for (const side of [chat.advisor, chat.customer]) {
      await side.socket.waitForItem((i) => i.Id === later.body.Id);
      expect(side.socket.items().filter((i) => i.Id === first.body.Id)).toHaveLength(1);
    }
    const t = await call<{ Transcript: { Content?: string }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100 },
    );
    expect(t.body.Transcript.filter((i) => i.Content === "once only")).toHaveLength(1);
    chat.closeSockets();
  });

  it("accepts text/plain content of 1024 characters and rejects 1025 with 400 ValidationException", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    const ok = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/plain",
      Content: "x".repeat(1024),
    });
    expect(ok.status).toBe(200);
    const tooLong = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/plain",
      Content: "x".repeat(1025),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.__type).toBe("ValidationException");
    expect(tooLong.body.message).toMatch(/1024/);
  });

  it("rejects application/json content over 16,384 bytes and content types the chat did not enable", async () => {
    const chat = await server.startChat("Customer", ["text/plain", "application/json"]);
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    const json = await call(server.url, SendMessage, connectionToken, {
      ContentType: "application/json",
      Content: JSON.stringify({ a: "é".repeat(5000) }),
    });
    expect(json.status).toBe(200);
    const bytes = await call(server.url, SendMessage, connectionToken, {
      ContentType: "application/json",
      Content: "€".repeat(6000),
    });
    expect(bytes.status).toBe(400);
    expect(bytes.body.message).toMatch(/16384 bytes/);
    const markdown = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/markdown",
      Content: "**hi**",
    });
    expect(markdown.status).toBe(400);
    expect(markdown.body.message).toMatch(/not enabled/);
    const interactive = await call(server.url, SendMessage, connectionToken, {
      ContentType: "application/vnd.amazonaws.connect.message.interactive",
      Content: "{}",
    });
    expect(interactive.status).toBe(400);
    expect(interactive.body.message).toMatch(/not supported/);
  });

  it("rejects a missing, empty or wrongly typed Content with 400 ValidationException naming it", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    for (const body of [
      { ContentType: "text/plain" },
      { ContentType: "text/plain", Content: "" },
      { ContentType: "text/plain", Content: 123 },
      { ContentType: "text/plain", Content: "x", ClientToken: "t".repeat(501) },
    ]) {
      const r = await call(server.url, SendMessage, connectionToken, body);
      expect(r.status).toBe(400);
      expect(r.headers.get("x-amzn-errortype")).toBe("ValidationException");
      expect(r.body.message).toMatch(/Content|ClientToken/);
    }
  });
});
