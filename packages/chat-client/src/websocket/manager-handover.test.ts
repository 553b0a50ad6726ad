import { Topic } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CloseReason } from "./constants.js";
import {
  FakeWebSocket,
  answerBeat,
  autoAnswer,
  confirmSubscription,
  connected,
  createHarness,
  flush,
} from "./test-support/harness.js";

const chat = (text: string): WebSocketEnvelope => ({
  topic: Topic.CHAT,
  contentType: "application/json",
  content: JSON.stringify({ Id: text }),
});

/** Connect, confirm aws/chat, then let the heartbeat go unanswered until a secondary exists. */
async function primaryWithUnansweredHeartbeat() {
  const h = createHarness();
  const { ws: primary } = await connected(h);
  confirmSubscription(primary);
  primary.receive({ topic: Topic.PING, statusCode: 200 });
  await vi.advanceTimersByTimeAsync(10_000);
  return { h, primary };
}

describe("websocket manager: primary and secondary sockets", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("An unanswered heartbeat reconnects: a new URL is fetched and opened as a secondary while the primary stays open", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    expect(h.fetchTimes).toEqual([0, 10_000]);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(primary.readyState).toBe(1);
    expect(primary.closedWith).toBeNull();
    // the heartbeat of the stale primary stopped
    await vi.advanceTimersByTimeAsync(30_000);
    expect(primary.sentOn(Topic.HEARTBEAT)).toHaveLength(1);
  });

  it("Hand-over: the secondary subscribes to the primary's topics; once all are confirmed the primary closes with 1000 and no connection lost", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    h.manager.subscribeTopics(["aws/other"]);
    const secondary = FakeWebSocket.last;
    secondary.open();
    expect(h.seen.gain).toEqual([0, 10_000]);
    expect(secondary.sent.slice(0, 3)).toEqual([
      { topic: Topic.SUBSCRIBE, content: { topics: [Topic.CHAT, "aws/other"] } },
      { topic: Topic.PING },
      { topic: Topic.HEARTBEAT },
    ]);
    confirmSubscription(secondary, [Topic.CHAT]);
    expect(primary.closedWith).toBeNull();
    confirmSubscription(secondary, ["aws/other"]);
    expect(primary.closedWith).toEqual({
      code: 1000,
      reason: "[Primary WebSocket] Closing WebSocket",
    });
    expect(CloseReason.HAND_OVER).toBe("[Primary WebSocket] Closing WebSocket");
    expect(h.seen.lost).toEqual([]);
    expect(h.manager.getState()).toBe("connected");
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    // the former secondary is now the only socket: its heartbeat runs, application frames flow
    answerBeat(secondary);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(secondary.sentOn(Topic.HEARTBEAT)).toHaveLength(2);
    secondary.receive(chat("after"));
    expect(h.seen.chat.map((f) => f.content)).toEqual([JSON.stringify({ Id: "after" })]);
  });

  it("While both sockets are subscribed, frames from the primary are ignored", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    h.manager.subscribeTopics(["aws/other"]);
    const secondary = FakeWebSocket.last;
    secondary.open();
    primary.receive(chat("primary-before"));
    confirmSubscription(secondary, [Topic.CHAT]);
    primary.receive(chat("primary-dup"));
    primary.receive({ topic: "aws/other", content: "from-primary" });
    secondary.receive(chat("secondary"));
    expect(h.seen.chat.map((f) => JSON.parse(f.content as string).Id)).toEqual([
      "primary-before",
      "secondary",
    ]);
    expect(h.seen.all.map((f) => f.topic)).toEqual([Topic.CHAT, "aws/other", Topic.CHAT]);
  });

  it("Messages are sent on the secondary once it is open", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    const secondary = FakeWebSocket.last;
    secondary.open();
    h.manager.sendMessage({ topic: "aws/app", content: "x" });
    expect(secondary.sentOn("aws/app")).toHaveLength(1);
    expect(primary.sentOn("aws/app")).toHaveLength(0);
  });

  it("Scheduled reconnect on the transport lifetime hands over to a secondary with no connection lost", async () => {
    const h = createHarness();
    const { ws: primary } = await connected(h, true);
    await vi.advanceTimersByTimeAsync(3_540_000);
    const secondary = FakeWebSocket.last;
    expect(secondary).not.toBe(primary);
    autoAnswer(secondary);
    secondary.open();
    await flush();
    expect(primary.closedWith).toEqual({ code: 1000, reason: CloseReason.HAND_OVER });
    expect(h.seen.lost).toEqual([]);
    expect(h.seen.gain).toEqual([0, 3_540_000]);
    // the lifetime timer now belongs to the new socket
    await vi.advanceTimersByTimeAsync(3_539_999);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetcher).toHaveBeenCalledTimes(3);
  });

  it("When the primary closes during the hand-over, the open secondary carries on with no connection lost", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    const secondary = FakeWebSocket.last;
    secondary.open();
    primary.serverClose(1006);
    await flush();
    expect(h.seen.lost).toEqual([]);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    confirmSubscription(secondary);
    secondary.receive(chat("x"));
    expect(h.seen.chat).toHaveLength(1);
  });

  it("When the secondary closes during the hand-over, a new URL is fetched for another secondary", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    const secondary = FakeWebSocket.last;
    secondary.open();
    await vi.advanceTimersByTimeAsync(100);
    secondary.serverClose(1006);
    await flush();
    expect(h.seen.lost).toEqual([]);
    expect(h.fetchTimes).toEqual([0, 10_000, 10_100]);
    expect(primary.readyState).toBe(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
  });

  it("Connection lost when the primary closes while the secondary has not opened yet", async () => {
    const { h, primary } = await primaryWithUnansweredHeartbeat();
    primary.serverClose(1006);
    await flush();
    expect(h.seen.lost).toHaveLength(1);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    FakeWebSocket.last.open();
    expect(h.seen.gain).toEqual([0, 10_000]);
  });
});
