import { Limits, ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CALLER_TTL_MS } from "../src/participant/caller-cache.js";
import { postStartChat } from "./features/helpers.js";
import { call, connectParticipant } from "./support/client.js";
import { statementsDuring } from "./support/statements.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { CreateParticipantConnection, SendMessage, DisconnectParticipant } = ParticipantPath;
const BOTH = { Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] };

describe.each(ENGINES)("CreateParticipantConnection (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startServer(engine, { clock });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("returns a websocket URL starting exactly ws://127.0.0.1:<port> with a 100 s connection expiry and a 1-day connection token", async () => {
    const chat = await server.startChat();
    const r = await call<{
      Websocket: { Url: string; ConnectionExpiry: string };
      ConnectionCredentials: { ConnectionToken: string; Expiry: string };
    }>(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
    expect(r.status).toBe(200);
    const port = new URL(server.url).port;
    expect(r.body.Websocket.Url.startsWith(`ws://127.0.0.1:${port}/participant/ws?token=`)).toBe(
      true,
    );
    expect(r.body.Websocket.ConnectionExpiry).toBe(new Date(clock.now() + 100_000).toISOString());
    expect(r.body.ConnectionCredentials.Expiry).toBe(
      new Date(clock.now() + Limits.CONNECTION_TOKEN_TTL_MS).toISOString(),
    );
    expect(r.body.ConnectionCredentials.ConnectionToken.length).toBeGreaterThan(20);
    expect(r.body.ConnectionCredentials.ConnectionToken.length).toBeLessThanOrEqual(1000);
    expect(r.headers.get("x-amzn-requestid")).toMatch(/[0-9a-f-]{36}/);
  });

  it("issues a new ConnectionToken on each call and older unexpired tokens stay valid", async () => {
    const chat = await server.startChat();
    const first = await connectParticipant(server.url, chat.participantToken);
    const second = await connectParticipant(server.url, chat.participantToken);
    expect(second.connectionToken).not.toBe(first.connectionToken);
    expect(second.websocketUrl).not.toBe(first.websocketUrl);
    for (const token of [first.connectionToken, second.connectionToken]) {
      const sent = await call(server.url, SendMessage, token, {
        ContentType: "text/plain",
        Content: "hi",
      });
      expect(sent.status).toBe(200);
    }
  });

  it("answers ConnectParticipant: true with no Type with {} and marks the participant connected", async () => {
    const chat = await server.startChat();
    const agent = await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const r = await call(server.url, CreateParticipantConnection, agent.participantToken, {
      ConnectParticipant: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const participants = await server.built.deps.centre.getParticipants(chat.contactId);
    const sam = participants.find((p) => p.participantId === agent.participantId);
    expect(sam?.connectedAt).toBe(new Date(clock.now()).toISOString());
  });

  it("accepts the first connection exactly 5 minutes after the chat started", async () => {
    const chat = await server.startChat();
    clock.advance(Limits.CONNECT_WINDOW_MS);
    const r = await call(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
    expect(r.status).toBe(200);
  });

  it("refuses a first connection created more than 5 minutes after the chat started with 403 AccessDeniedException", async () => {
    const chat = await server.startChat();
    clock.advance(Limits.CONNECT_WINDOW_MS + 1);
    const r = await call(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
    expect(r.status).toBe(403);
    expect(r.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    expect(r.body.__type).toBe("AccessDeniedException");
  });

  it("keeps accepting repeated calls after the first connection, however late", async () => {
    const chat = await server.startChat();
    await connectParticipant(server.url, chat.participantToken);
    clock.advance(Limits.CONNECT_WINDOW_MS * 3);
    const r = await call(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
    expect(r.status).toBe(200);
  });

  it("a connection token is valid for 1 day and refused after, to the millisecond", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    clock.advance(Limits.CONNECTION_TOKEN_TTL_MS - 1);
    const before = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/plain",
      Content: "a",
    });
    expect(before.status).toBe(200);
    clock.advance(1);
    const after = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/plain",
      Content: "b",
    });
    expect(after.status).toBe(403);
    expect(after.body.__type).toBe("AccessDeniedException");
  });

  it("remembers a SendMessage ClientToken for 1 day, to the millisecond", async () => {
    const chat = await server.startChat();
    const body = { ContentType: "text/plain", Content: "once a day", ClientToken: "daily" };
    const token = async () =>
      (await connectParticipant(server.url, chat.participantToken)).connectionToken;
    const first = await call<{ Id: string }>(server.url, SendMessage, await token(), body);
    clock.advance(Limits.CONNECTION_TOKEN_TTL_MS - 1);
    const replay = await call<{ Id: string }>(server.url, SendMessage, await token(), body);
    expect(replay.body.Id).toBe(first.body.Id);
    clock.advance(1);
    const later = await call<{ Id: string }>(server.url, SendMessage, await token(), body);
    expect(later.status).toBe(200);
    expect(later.body.Id).not.toBe(first.body.Id);
  });

  it("answers 403 AccessDeniedException once the participant has left, and again on every later call", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    expect((await call(server.url, DisconnectParticipant, connectionToken, {})).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await call(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
      expect(r.status).toBe(403);
      expect(r.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
      expect(r.body).toMatchObject({ __type: "AccessDeniedException" });
      expect(typeof r.body.message).toBe("string");
    }
  });

  it("refuses an unknown participant token and a missing one with 403 AccessDeniedException", async () => {
    const wrong = await call(server.url, CreateParticipantConnection, "not-a-token", BOTH);
    expect(wrong.status).toBe(403);
    expect(wrong.body.__type).toBe("AccessDeniedException");
    const missing = await call(server.url, CreateParticipantConnection, null, BOTH);
    expect(missing.status).toBe(403);
    expect(missing.body.message).toMatch(/X-Amz-Bearer/);
  });

  it("refuses a connection token where the participant token is expected, and the reverse", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken);
    expect(
      (await call(server.url, CreateParticipantConnection, connectionToken, BOTH)).status,
    ).toBe(403);
    const r = await call(server.url, SendMessage, chat.participantToken, {
      ContentType: "text/plain",
      Content: "x",
    });
    expect(r.status).toBe(403);
  });

  it("accepts WEBRTC_CONNECTION (in the SDK model's ConnectionType) beside other types and answers without a WebRTCConnection member", async () => {
    const chat = await server.startChat();
    const r = await call(server.url, CreateParticipantConnection, chat.participantToken, {
      Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS", "WEBRTC_CONNECTION"],
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["ConnectionCredentials", "Websocket"]);
    const credentialsOnly = await call(
      server.url,
      CreateParticipantConnection,
      chat.participantToken,
      { Type: ["WEBRTC_CONNECTION", "CONNECTION_CREDENTIALS"] },
    );
    expect(credentialsOnly.status).toBe(200);
    expect(Object.keys(credentialsOnly.body)).toEqual(["ConnectionCredentials"]);
  });

  it("refuses WEBRTC_CONNECTION as the only Type with 400 ValidationException saying chats have no WebRTC connection, and connects no one", async () => {
    const chat = await server.startChat();
    const agent = await server.built.deps.centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const r = await call(server.url, CreateParticipantConnection, agent.participantToken, {
      Type: ["WEBRTC_CONNECTION"],
      ConnectParticipant: true,
    });
    expect(r.status).toBe(400);
    expect(r.body.__type).toBe("ValidationException");
    expect(r.body.message).toMatch(/WEBRTC_CONNECTION/);
    const participants = await server.built.deps.centre.getParticipants(chat.contactId);
    const sam = participants.find((p) => p.participantId === agent.participantId);
    expect(sam?.connectedAt ?? null).toBeNull();
  });

  it("rejects an unknown connection Type with 400 ValidationException naming the field", async () => {
    const chat = await server.startChat();
    const r = await call(server.url, CreateParticipantConnection, chat.participantToken, {
      Type: ["VIDEO"],
    });
    expect(r.status).toBe(400);
    expect(r.body.__type).toBe("ValidationException");
    expect(r.body.message).toMatch(/Type/);
  });
});

// StartChatContact (through the gateway), then CreateParticipantConnection, as a widget does.
describe.each(ENGINES)("the callers of the tokens this process just gave (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startServer(engine, { clock, features: true });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  /** The reads that find a caller by its token while `fn` ran. */
  const tokenReads = (fn: () => Promise<void>) =>
    statementsDuring(server.built.deps.db, /token_hash = \$1/, fn);
  const started = async () => {
    const r = await postStartChat(server);
    expect(r.status).toBe(200);
    return r.body.data.startChatResult.ParticipantToken;
  };

  it("StartChatContact's token connects, and the connection's token is used, without a read", async () => {
    const participantToken = await started();
    const reads = await tokenReads(async () => {
      const r = await call<{ ConnectionCredentials: { ConnectionToken: string } }>(
        server.url,
        CreateParticipantConnection,
        participantToken,
        { ...BOTH, ConnectParticipant: true },
      );
      expect(r.status).toBe(200);
      const transcript = await call(
        server.url,
        ParticipantPath.GetTranscript,
        r.body.ConnectionCredentials.ConnectionToken,
        {},
      );
      expect(transcript.status).toBe(200);
    });
    expect(reads).toEqual([]);
  });

  it("reads the store once the kept caller's 30 s passed", async () => {
    const participantToken = await started();
    clock.advance(CALLER_TTL_MS);
    const reads = await tokenReads(async () => {
      const r = await call(server.url, CreateParticipantConnection, participantToken, BOTH);
      expect(r.status).toBe(200);
    });
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain("WHERE p.token_hash = $1");
  });

  it("refuses a kept token once its participant left", async () => {
    const participantToken = await started();
    const { connectionToken } = await connectParticipant(server.url, participantToken);
    const left = await call(server.url, DisconnectParticipant, connectionToken, {});
    expect(left.status).toBe(200);
    const connecting = await call(server.url, CreateParticipantConnection, participantToken, BOTH);
    expect(connecting.status).toBe(403);
    const sending = await call(server.url, SendMessage, connectionToken, {
      ContentType: "text/plain",
      Content: "x",
    });
    expect(sending.status).toBe(403);
  });
});

describe("a quiet server's kept callers", () => {
  it(
    "are dropped every CALLER_TTL_MS, with no request to make room",
    async () => {
      // Only the intervals are faked: requests, sockets and the store keep their real timers.
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      const clock = new ManualClock();
      const server = await startServer("pglite", { clock });
      try {
        const chat = await server.startChat();
        const r = await call(server.url, CreateParticipantConnection, chat.participantToken, BOTH);
        expect(r.status).toBe(200);
        const callers = server.built.deps.callers;
        expect(callers.size).toBeGreaterThan(0);
        clock.advance(CALLER_TTL_MS);
        await vi.advanceTimersByTimeAsync(CALLER_TTL_MS);
        expect(callers.size).toBe(0);
      } finally {
        vi.useRealTimers();
        await server.close();
      }
    },
    START_TIMEOUT_MS,
  );
});
