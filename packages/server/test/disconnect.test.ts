import { ContentType, ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatWithAdvisor } from "./support/chat.js";
import { call } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { DisconnectParticipant, SendMessage, CreateParticipantConnection, GetTranscript } =
  ParticipantPath;

describe.each(ENGINES)("DisconnectParticipant (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("delivers participant.left then chat.ended to the disconnecting customer's own socket, then closes the sockets", async () => {
    const chat = await chatWithAdvisor(server);
    const r = await call(server.url, DisconnectParticipant, chat.customer.connectionToken, {
      ClientToken: "bye-1",
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    for (const side of [chat.customer, chat.advisor]) {
      await side.socket.waitForItem((i) => i.ContentType === ContentType.CHAT_ENDED);
      const events = side.socket.items().map((i) => [i.ContentType, i.ParticipantRole]);
      const leftCustomer = events.findIndex(
        ([ct, role]) => ct === ContentType.PARTICIPANT_LEFT && role === "CUSTOMER",
      );
      const ended = events.findIndex(([ct]) => ct === ContentType.CHAT_ENDED);
      expect(leftCustomer).toBeGreaterThanOrEqual(0);
      expect(ended).toBeGreaterThan(leftCustomer);
      const endedItem = side.socket.items()[ended]!;
      expect(endedItem).toMatchObject({
        Type: "EVENT",
        ContactId: chat.contactId,
        InitialContactId: chat.contactId,
      });
      expect((await side.socket.waitForClose()).code).toBe(1000);
    }
    // The advisor left too when the chat ended.
    expect(
      chat.advisor.socket
        .items()
        .some(
          (i) => i.ContentType === ContentType.PARTICIPANT_LEFT && i.ParticipantRole === "AGENT",
        ),
    ).toBe(true);
    const contact = await server.built.deps.centre.getContact(chat.contactId);
    expect(contact?.status).toBe("ended");
  });

  it("answers a retry with the same ClientToken with {} and any other call after leaving with 403 AccessDeniedException", async () => {
    const chat = await chatWithAdvisor(server);
    const token = chat.customer.connectionToken;
    expect(
      (await call(server.url, DisconnectParticipant, token, { ClientToken: "bye-2" })).status,
    ).toBe(200);
    const retry = await call(server.url, DisconnectParticipant, token, { ClientToken: "bye-2" });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({});
    const other = await call(server.url, DisconnectParticipant, token, { ClientToken: "bye-3" });
    expect(other.status).toBe(403);
    expect(other.body.__type).toBe("AccessDeniedException");
    const send = await call(server.url, SendMessage, token, {
      ContentType: "text/plain",
      Content: "still there?",
    });
    expect(send.status).toBe(403);
    const reconnect = await call(
      server.url,
      CreateParticipantConnection,
      chat.customer.participant.participantToken,
      { Type: ["WEBSOCKET"] },
    );
    expect(reconnect.status).toBe(403);
    chat.closeSockets();
  });

  it("concurrent retries with one ClientToken are all answered {} and leave once", async () => {
    const chat = await chatWithAdvisor(server);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(server.url, DisconnectParticipant, chat.advisor.connectionToken, {
          ClientToken: "bye-together",
        }),
      ),
    );
    expect(answers.map((r) => [r.status, r.body])).toEqual(Array(8).fill([200, {}]));
    const transcript = await call<{
      Transcript: { ContentType?: string; ParticipantRole?: string }[];
    }>(server.url, GetTranscript, chat.customer.connectionToken, {
      MaxResults: 100,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
    });
    expect(transcript.status).toBe(200);
    const left = transcript.body.Transcript.filter(
      (i) => i.ContentType === ContentType.PARTICIPANT_LEFT && i.ParticipantRole === "AGENT",
    );
    expect(left).toHaveLength(1);
    chat.closeSockets();
  });

  it("an advisor leaving records participant.left, closes the advisor's sockets and keeps the chat open for the customer", async () => {
    const chat = await chatWithAdvisor(server);
    expect(
      (await call(server.url, DisconnectParticipant, chat.advisor.connectionToken, {})).status,
    ).toBe(200);
    const left = await chat.customer.socket.waitForItem(
      (i) => i.ContentType === ContentType.PARTICIPANT_LEFT,
    );
    expect(left.ParticipantRole).toBe("AGENT");
    expect((await chat.advisor.socket.waitForClose()).code).toBe(1000);
    const send = await call(server.url, SendMessage, chat.customer.connectionToken, {
      ContentType: "text/plain",
      Content: "hello?",
    });
    expect(send.status).toBe(200);
    const t = await call<{ Transcript: { ContentType?: string }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100 },
    );
    expect(t.body.Transcript.some((i) => i.ContentType === ContentType.CHAT_ENDED)).toBe(false);
    chat.closeSockets();
  });

  it("keeps the ended chat's transcript readable by neither token afterwards (403) but stored", async () => {
    const chat = await chatWithAdvisor(server);
    await call(server.url, DisconnectParticipant, chat.customer.connectionToken, {});
    const t = await call(server.url, GetTranscript, chat.advisor.connectionToken, {});
    expect(t.status).toBe(403);
    const rows = await server.built.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM items WHERE contact_id = $1",
      [chat.contactId],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(5);
    chat.closeSockets();
  });
});
