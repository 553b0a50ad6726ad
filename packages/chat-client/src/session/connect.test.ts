import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import { createHarness, flush } from "../test-support/harness.js";
import type { ConnectResult } from "./events.js";

afterEach(() => vi.useRealTimers());

describe("customer connection (docs/product.md §6)", () => {
  it("a customer session creates a participant connection using its participant token", async () => {
    const h = createHarness();
    await h.session.connect();
    const [request] = h.service.calls("CreateParticipantConnection");
    expect(request!.headers["x-amz-bearer"]).toBe("participant-token");
    expect(request!.body).toEqual({ Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] });
  });

  it("connect resolves { _debug, connectSuccess: true, connectCalled: true, metadata }", async () => {
    const h = createHarness();
    const result = await h.session.connect({ metadata: { page: "shop" } });
    expect(result).toEqual({
      _debug: { websocketStatus: "Starting" },
      connectSuccess: true,
      connectCalled: true,
      metadata: { page: "shop" },
    });
  });

  it("connection details are built from the participant-connection response", async () => {
    const h = createHarness();
    await h.session.connect();
    expect(h.session.getChatDetails().connectionDetails).toEqual({
      url: "wss://ws.example.com/id-1",
      expiry: "2099-01-01T00:00:00.000Z",
      transportLifeTimeInSeconds: 3540,
      connectionAcknowledged: false,
      connectionToken: "conn-id-1",
      connectionTokenExpiry: "2099-01-01T00:00:00.000Z",
    });
  });

  it('connect failure rejects with reason "Failed to fetch connectionDetails with createParticipantConnection"', async () => {
    const h = createHarness();
    h.service.on("CreateParticipantConnection", () => ({
      status: 403,
      body: { __type: "AccessDeniedException", message: "no" },
    }));
    const error = (await h.session
      .connect({ metadata: 7 })
      .catch((e: unknown) => e)) as ConnectResult;
    expect(error).toMatchObject({
      _debug: {
        reason: "Failed to fetch connectionDetails with createParticipantConnection",
        _debug: { type: "AccessDeniedException", message: "no", statusCode: 403 },
      },
      connectSuccess: false,
      connectCalled: true,
      metadata: 7,
    });
  });

  it("connect may be called only once (a duplicate is ignored with a warning)", async () => {
    const h = createHarness();
    const first = h.session.connect();
    const second = h.session.connect();
    expect(second).toBe(first);
    await first;
    expect(h.service.calls("CreateParticipantConnection")).toHaveLength(1);
    expect(h.log.entries).toContainEqual({
      level: "warn",
      text: expect.stringContaining(
        "Ignoring duplicate call to connect. Method can only be invoked once",
      ),
    });
  });

  it("the websocket manager subscribes aws/chat and is started with the connect response's URL first", async () => {
    const h = createHarness();
    await h.session.connect();
    expect(h.manager.topics).toEqual(["aws/chat"]);
    const transport = await h.manager.fetch();
    expect(transport).toEqual({
      webSocketTransport: {
        url: "wss://ws.example.com/id-1",
        expiry: "2099-01-01T00:00:00.000Z",
        transportLifeTimeInSeconds: 3540,
      },
    });
    expect(h.service.calls("CreateParticipantConnection")).toHaveLength(1);
    await h.manager.fetch();
    expect(h.service.calls("CreateParticipantConnection")).toHaveLength(2);
  });

  it("a reconnect's participant connection also refreshes the connection token", async () => {
    const h = createHarness();
    await h.session.connect();
    await h.manager.fetch();
    await h.manager.fetch();
    await h.session.sendMessage({ message: "hi", contentType: "text/plain" });
    expect(h.service.calls("SendMessage")[0]!.headers["x-amz-bearer"]).toBe("conn-id-2");
  });

  it("onConnectionEstablished fires on connect success and again when the websocket connects", async () => {
    const h = createHarness();
    const seen: unknown[] = [];
    h.session.onConnectionEstablished((e) => seen.push(e.data));
    const result = await h.session.connect();
    expect(seen).toEqual([result]);
    h.manager.gain();
    expect(seen).toHaveLength(2);
  });
});

describe("agent connection (docs/product.md §6, docs/protocol.md §5.2)", () => {
  it("an agent session asks for a connection token through getConnectionToken", async () => {
    const h = createHarness({ type: "AGENT" });
    await h.session.connect();
    expect(h.session.getChatDetails().connectionDetails).toEqual({
      url: null,
      expiry: null,
      transportLifeTimeInSeconds: 3540,
      connectionAcknowledged: false,
      connectionToken: "agent-conn-token",
      connectionTokenExpiry: "2025-01-02T10:00:00.000Z",
    });
  });

  it("an agent session sends a connection acknowledgement when not yet acknowledged", async () => {
    const h = createHarness({ type: "AGENT", sharedManager: true });
    const acks: unknown[] = [];
    h.session.onConnectionAcknowledged((e) => acks.push(e.data));
    await h.session.connect();
    await flush();
    const [ack] = h.service.calls("CreateParticipantConnection");
    expect(ack!.body).toEqual({ ConnectParticipant: true });
    expect(ack!.headers["x-amz-bearer"]).toBe("agent-participant-token");
    expect(acks).toHaveLength(1);
    expect(h.session.getChatDetails().connectionDetails?.connectionAcknowledged).toBe(true);
  });

  it("falls back to a participant connection with the connect-participant flag set, then needs no acknowledgement", async () => {
    const h = createHarness({
      type: "AGENT",
      chatDetails: {
        contactId: "agent-contact-fallback",
        participantId: "agent-1",
        participantToken: "apt",
        getConnectionToken: () => Promise.reject(new Error("streams down")),
      },
    });
    await h.session.connect();
    await flush();
    const calls = h.service.calls("CreateParticipantConnection");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({
      Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
      ConnectParticipant: true,
    });
    expect(h.session.getChatDetails().connectionDetails?.connectionAcknowledged).toBe(true);
  });

  it("if the fallback fails the error type is CONN_ACK_FAILED", async () => {
    const h = createHarness({
      type: "AGENT",
      chatDetails: {
        contactId: "agent-contact-fail",
        participantId: "agent-1",
        participantToken: "apt",
        getConnectionToken: () => Promise.reject(new Error("streams down")),
      },
    });
    h.service.on("CreateParticipantConnection", () => ({
      status: 400,
      body: { __type: "ValidationException" },
    }));
    const failure = (await h.session.connect().catch((e: unknown) => e)) as {
      _debug: { _debug: Error };
    };
    expect(failure._debug._debug).toMatchObject({
      name: "CONN_ACK_FAILED",
      type: "CONN_ACK_FAILED",
    });
  });

  it("an agent session subscribes aws/chat on the shared manager and does not start it", async () => {
    const h = createHarness({ type: "AGENT", sharedManager: true });
    await h.session.connect();
    expect(h.manager.topics).toContain("aws/chat");
    expect(h.manager.fetchers).toHaveLength(0);
  });

  it("a connection.acknowledged item goes to onMessage and onConnectionAcknowledged", async () => {
    const h = createHarness({ type: "AGENT", sharedManager: true });
    await h.session.connect();
    await flush();
    const messages: unknown[] = [];
    const acks: unknown[] = [];
    h.session.onMessage((e) => messages.push(e.data));
    h.session.onConnectionAcknowledged((e) => acks.push(e.data));
    const item = h.item({
      Type: "EVENT",
      ContentType: ContentType.CONNECTION_ACKNOWLEDGED,
      Content: undefined,
    });
    h.manager.item(item);
    expect(messages).toEqual([item]);
    expect(acks).toEqual([item]);
  });
});

describe("connection details provider", () => {
  it('an unknown session type fails with "Failed to fetch connectionDetails."', async () => {
    const { ConnectionDetailsProvider } = await import("./connection-details.js");
    const provider = new ConnectionDetailsProvider(
      {} as never,
      { contactId: "c", participantId: "p", initialContactId: "c" },
      "VISITOR" as never,
      { debug() {}, info() {}, warn() {}, error() {} },
    );
    await expect(provider.fetchConnectionDetails()).rejects.toThrow(
      "Failed to fetch connectionDetails.",
    );
  });
});
