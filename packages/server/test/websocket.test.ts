import { Limits, ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CALLER_TTL_MS } from "../src/participant/caller-cache.js";
import { FRAME_BURST } from "../src/participant/frame-guard.js";
import { call, connectParticipant, FrameClient } from "./support/client.js";
import { statementsDuring } from "./support/statements.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

describe.each(ENGINES)("participant websocket (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startServer(engine, { clock });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const connected = async () => {
    const chat = await server.startChat();
    return { chat, ...(await connectParticipant(server.url, chat.participantToken)) };
  };

  it("answers aws/subscribe with success listing the topics now subscribed", async () => {
    const { websocketUrl } = await connected();
    const ws = await FrameClient.open(websocketUrl);
    ws.send({ topic: "aws/subscribe", content: { topics: ["aws/chat", "aws/unknown"] } });
    const reply = await ws.waitFor((f) => f.topic === "aws/subscribe");
    expect(reply).toEqual({
      topic: "aws/subscribe",
      content: { status: "success", topics: ["aws/chat"] },
    });
    ws.send({ topic: "aws/subscribe", content: { topics: ["aws/other"] } });
    const failure = await ws.waitFor((f) => f.topic === "aws/subscribe", { from: 1 });
    expect(failure).toEqual({
      topic: "aws/subscribe",
      content: { status: "failure", topics: ["aws/other"] },
    });
    ws.close();
  });

  it("echoes aws/heartbeat and answers aws/ping with top-level statusCode 200 and statusContent OK", async () => {
    const { websocketUrl } = await connected();
    const ws = await FrameClient.open(websocketUrl);
    ws.send({ topic: "aws/heartbeat" });
    expect(await ws.waitFor((f) => f.topic === "aws/heartbeat")).toEqual({
      topic: "aws/heartbeat",
    });
    ws.send({ topic: "aws/ping" });
    expect(await ws.waitFor((f) => f.topic === "aws/ping")).toEqual({
      topic: "aws/ping",
      statusCode: 200,
      statusContent: "OK",
    });
    ws.close();
  });

  it("answers every one of a flood of pings over several sockets, asking the store at most once a second; other frames beyond a socket's budget go unanswered (issue 57)", async () => {
    const sockets = await Promise.all(
      [1, 2, 3].map(async () => FrameClient.open((await connected()).websocketUrl)),
    );
    const db = server.built.deps.db;
    const query = db.query.bind(db);
    let probes = 0;
    db.query = ((sql: string, params?: unknown[]) => {
      if (sql === "SELECT 1") probes++;
      return query(sql, params);
    }) as typeof db.query;
    const began = Date.now();
    try {
      for (const ws of sockets) for (let i = 0; i < 300; i++) ws.send({ topic: "aws/ping" });
      for (const ws of sockets) {
        await ws.waitFor(() => ws.frames.filter((f) => f.topic === "aws/ping").length === 300, {
          ms: 15_000,
        });
        expect(ws.frames.every((f) => f.statusCode === 200)).toBe(true);
      }
      expect(probes).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - began) / 1000));
    } finally {
      db.query = query;
    }
    // 100 heartbeats at once: the budget's burst is answered, the rest dropped, the socket open.
    const [ws] = sockets;
    const before = ws!.frames.length;
    for (let i = 0; i < 100; i++) ws!.send({ topic: "aws/heartbeat" });
    ws!.send({ topic: "aws/ping" });
    await ws!.waitFor((f) => f.topic === "aws/ping", { from: before });
    const beats = ws!.frames.slice(before).filter((f) => f.topic === "aws/heartbeat").length;
    expect(beats).toBeGreaterThanOrEqual(FRAME_BURST);
    expect(beats).toBeLessThan(100);
    expect(ws!.closed).toBeNull();
    for (const s of sockets) s.close();
  });

  it("answers non-JSON, binary and unknown-topic frames with a gateway-style error frame and keeps the socket open", async () => {
    const { websocketUrl } = await connected();
    const ws = await FrameClient.open(websocketUrl);
    ws.send("this is not json");
    ws.send("[1,2,3]");
    ws.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    ws.send({ topic: "aws/chat", content: "hello" });
    ws.send("");
    ws.send({ topic: "aws/heartbeat" });
    await ws.waitFor((f) => f.topic === "aws/heartbeat");
    const errors = ws.frames.filter((f) => f.topic === undefined);
    expect(errors).toHaveLength(4);
    for (const e of errors) {
      expect(typeof e.message).toBe("string");
      expect(typeof e.connectionId).toBe("string");
      expect(typeof e.requestId).toBe("string");
    }
    expect(ws.closed).toBeNull();
    ws.close();
  });

  it("delivers to several sockets of one participant, and only after they subscribed to aws/chat", async () => {
    const { chat, connectionToken } = await connected();
    const urls = await Promise.all(
      [1, 2].map(() => connectParticipant(server.url, chat.participantToken)),
    );
    const a = await FrameClient.subscribed(urls[0]!.websocketUrl);
    const b = await FrameClient.subscribed(urls[1]!.websocketUrl);
    const unsubscribed = await FrameClient.open(urls[1]!.websocketUrl);
    const sent = await call<{ Id: string }>(
      server.url,
      ParticipantPath.SendMessage,
      connectionToken,
      { ContentType: "text/plain", Content: "to both" },
    );
    await a.waitForItem((i) => i.Id === sent.body.Id);
    await b.waitForItem((i) => i.Id === sent.body.Id);
    unsubscribed.send({ topic: "aws/heartbeat" });
    await unsubscribed.waitFor((f) => f.topic === "aws/heartbeat");
    expect(unsubscribed.items()).toHaveLength(0);
    for (const ws of [a, b, unsubscribed]) ws.close();
  });

  it("refuses the upgrade with 403 for an unknown token, and for a websocket URL older than 100 s", async () => {
    const { websocketUrl } = await connected();
    const bad = websocketUrl.replace(/token=[^&]+/, "token=wrong");
    await expect(FrameClient.open(bad)).rejects.toThrow(/403/);
    clock.advance(Limits.WEBSOCKET_URL_TTL_MS - 1);
    const stillOk = await FrameClient.open(websocketUrl);
    stillOk.close();
    clock.advance(1);
    await expect(FrameClient.open(websocketUrl)).rejects.toThrow(/403/);
  });

  it("marks the participant connected when its websocket opens", async () => {
    const { chat, websocketUrl } = await connected();
    const ws = await FrameClient.subscribed(websocketUrl);
    await vi.waitFor(async () => {
      const participants = await server.built.deps.centre.getParticipants(chat.contactId);
      expect(participants[0]?.connectedAt).toBe(new Date(clock.now()).toISOString());
    });
    ws.close();
  });

  it("when the chat ends, emits chat.ended and then closes every socket of the contact with 1000", async () => {
    const { chat, websocketUrl } = await connected();
    const ws = await FrameClient.subscribed(websocketUrl);
    await server.built.deps.centre.endContact(chat.contactId);
    await ws.waitForItem(
      (i) => i.ContentType === "application/vnd.amazonaws.connect.event.chat.ended",
    );
    expect(await ws.waitForClose()).toEqual({ code: 1000, reason: "chat ended" });
  });

  describe("a websocket URL's caller, kept by the process that granted it", () => {
    /** What the store was asked about websocket tokens and connections while `fn` ran. */
    const storeWork = (fn: () => Promise<void>) =>
      statementsDuring(server.built.deps.db, /websocket_tokens|connected_at/, fn);

    const granted = async (body: Record<string, unknown>) => {
      const chat = await server.startChat();
      const r = await call<{
        Websocket: { Url: string };
        ConnectionCredentials: { ConnectionToken: string };
      }>(server.url, ParticipantPath.CreateParticipantConnection, chat.participantToken, {
        Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
        ...body,
      });
      expect(r.status).toBe(200);
      return {
        chat,
        websocketUrl: r.body.Websocket.Url,
        connectionToken: r.body.ConnectionCredentials.ConnectionToken,
      };
    };

    it("opens it without reading the store, and a connected participant's without a write", async () => {
      const { chat, websocketUrl } = await granted({ ConnectParticipant: true });
      let ws: FrameClient | undefined;
      const work = await storeWork(async () => {
        ws = await FrameClient.subscribed(websocketUrl);
      });
      expect(work).toEqual([]);
      const participants = await server.built.deps.centre.getParticipants(chat.contactId);
      expect(participants[0]?.connectedAt).toBe(new Date(clock.now()).toISOString());
      ws!.close();
    });

    it("marks a participant not yet connected when its socket opens, and reads the store once the caller's 30 s passed", async () => {
      const { chat, websocketUrl } = await granted({});
      let first: FrameClient | undefined;
      const opening = await storeWork(async () => {
        first = await FrameClient.subscribed(websocketUrl);
      });
      expect(opening.filter((sql) => sql.includes("FROM websocket_tokens t"))).toEqual([]);
      await vi.waitFor(async () => {
        const participants = await server.built.deps.centre.getParticipants(chat.contactId);
        expect(participants[0]?.connectedAt).toBe(new Date(clock.now()).toISOString());
      });
      first!.close();
      clock.advance(CALLER_TTL_MS);
      let second: FrameClient | undefined;
      const later = await storeWork(async () => {
        second = await FrameClient.subscribed(websocketUrl);
      });
      expect(later.filter((sql) => sql.includes("FROM websocket_tokens t"))).toHaveLength(1);
      second!.close();
    });

    it("refuses it once its chat ended, and its token as X-Amz-Bearer at once", async () => {
      const { chat, websocketUrl } = await granted({ ConnectParticipant: true });
      const token = new URL(websocketUrl).searchParams.get("token")!;
      const asBearer = await call(server.url, ParticipantPath.GetTranscript, token, {});
      expect(asBearer.status).toBe(403);
      await server.built.deps.centre.endContact(chat.contactId);
      await expect(FrameClient.open(websocketUrl)).rejects.toThrow(/403/);
    });
  });
});
