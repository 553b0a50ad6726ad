import { Topic } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { confirmSubscription, connected, createHarness } from "./test-support/harness.js";

const chatFrameOf = (id: string): WebSocketEnvelope => ({
  topic: Topic.CHAT,
  contentType: "application/json",
  content: JSON.stringify({ Id: id }),
});

describe("websocket manager: frames", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("Empty websocket messages are ignored", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    ws.receive("");
    expect(h.seen.all).toEqual([]);
    expect(h.logger.error).not.toHaveBeenCalled();
    expect(h.logger.warn).not.toHaveBeenCalled();
  });

  it('Incoming websocket messages that are not valid JSON are logged as "Wrong message format" and dropped', async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    expect(() => ws.receive("{not json")).not.toThrow();
    expect(() => ws.receive("[1,2]")).not.toThrow();
    expect(h.logger.error.mock.calls).toEqual([["Wrong message format"], ["Wrong message format"]]);
    expect(h.seen.all).toEqual([]);
    ws.receive(chatFrameOf("still-works"));
    expect(h.seen.chat).toHaveLength(1);
  });

  it("Gateway error frames (no topic, a message) are logged and not dispatched", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    const gatewayError = { message: "Forbidden", connectionId: "c-1", requestId: "r-1" };
    ws.receive(gatewayError);
    expect(h.logger.error).toHaveBeenCalledWith("WebSocketManager: gateway error", gatewayError);
    expect(h.seen.all).toEqual([]);
  });

  it("Frames are dispatched by topic to onMessage subscribers and to onAllMessage; unsubscribing stops delivery", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    const other: WebSocketEnvelope[] = [];
    const off = h.manager.onMessage("aws/other", (f) => other.push(f));
    ws.receive(chatFrameOf("a"));
    ws.receive({ topic: "aws/other", content: "b" });
    expect(h.seen.chat).toEqual([chatFrameOf("a")]);
    expect(other).toEqual([{ topic: "aws/other", content: "b" }]);
    expect(h.seen.all.map((f) => f.topic)).toEqual([Topic.CHAT, "aws/other"]);
    off();
    ws.receive({ topic: "aws/other", content: "c" });
    expect(other).toHaveLength(1);
    expect(h.seen.all).toHaveLength(3);
  });

  it("Manager frames (subscribe, heartbeat, ping replies) are not handed to the application", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    ws.receive({ topic: Topic.HEARTBEAT });
    ws.receive({ topic: Topic.PING, statusCode: 200, statusContent: "OK" });
    expect(h.seen.all).toEqual([]);
  });

  it("A callback that throws is logged and the other callbacks still run", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    h.manager.onMessage(Topic.CHAT, () => {
      throw new Error("boom");
    });
    ws.receive(chatFrameOf("x"));
    expect(h.seen.chat).toHaveLength(1);
    expect(h.seen.all).toHaveLength(1);
    expect(h.logger.error).toHaveBeenCalled();
  });

  it("sendMessage sends an application frame as JSON and refuses frames on reserved topics", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    const before = ws.rawSent.length;
    for (const topic of [Topic.SUBSCRIBE, Topic.UNSUBSCRIBE, Topic.HEARTBEAT, Topic.PING]) {
      h.manager.sendMessage({ topic, content: {} });
    }
    expect(ws.rawSent).toHaveLength(before);
    expect(h.logger.error).toHaveBeenCalledTimes(4);
    h.manager.sendMessage({ topic: "aws/app", content: { a: 1 } });
    expect(ws.rawSent.at(-1)).toBe(JSON.stringify({ topic: "aws/app", content: { a: 1 } }));
  });

  it("sendMessage with no open socket sends nothing and logs", async () => {
    const h = createHarness();
    h.manager.sendMessage({ topic: "aws/app" });
    expect(h.logger.warn).toHaveBeenCalledWith("WebSocketManager: cannot send, no open WebSocket");
  });
});
