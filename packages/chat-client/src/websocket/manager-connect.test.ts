import { Topic, subscribeResponseFrame } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FakeWebSocket,
  TEST_URL,
  answerBeat,
  confirmSubscription,
  connected,
  createHarness,
  flush,
} from "./test-support/harness.js";

describe("websocket manager: start-up, subscriptions, heartbeat", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("init fetches a URL, opens it, and on open sends aws/subscribe, then aws/ping and aws/heartbeat", async () => {
    const h = createHarness();
    const { result, ws } = await connected(h);
    expect(result).toEqual({ websocketInitFailed: false });
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(ws.url).toBe(TEST_URL);
    expect(ws.sent).toEqual([
      { topic: Topic.SUBSCRIBE, content: { topics: [Topic.CHAT] } },
      { topic: Topic.PING },
      { topic: Topic.HEARTBEAT },
    ]);
    expect(h.seen.gain).toEqual([0]);
    expect(h.manager.getState()).toBe("connected");
  });

  it("topics asked for after open are subscribed on the open socket", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    h.manager.subscribeTopics(["aws/other"]);
    expect(ws.sentOn(Topic.SUBSCRIBE).at(-1)?.content).toEqual({
      topics: [Topic.CHAT, "aws/other"],
    });
    confirmSubscription(ws, [Topic.CHAT, "aws/other"]);
    expect(h.seen.subscriptionUpdate).toEqual([[Topic.CHAT, "aws/other"]]);
  });

  it("re-subscribes on every open", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    ws.serverClose(1001);
    await flush();
    const second = FakeWebSocket.last;
    expect(second).not.toBe(ws);
    second.open();
    expect(second.sent[0]).toEqual({ topic: Topic.SUBSCRIBE, content: { topics: [Topic.CHAT] } });
  });

  it("Subscription fails after more than 3 unanswered requests: resend at exactly 1000 ms, failure after the 4th unanswered", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    await vi.advanceTimersByTimeAsync(999);
    expect(ws.sentOn(Topic.SUBSCRIBE)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ws.sentOn(Topic.SUBSCRIBE)).toHaveLength(2);
    answerBeat(ws);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(ws.sentOn(Topic.SUBSCRIBE)).toHaveLength(4);
    expect(h.seen.subscriptionFailure).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.seen.subscriptionFailure).toEqual([{ at: 4000, topics: [Topic.CHAT] }]);
  });

  it("Subscription fails after 5 consecutive failures (retry every 500 ms), then failure callbacks fire", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      times.push(Date.now());
      ws.receive(subscribeResponseFrame("failure", [Topic.CHAT]));
      if (i < 4) await vi.advanceTimersByTimeAsync(500);
    }
    expect(times).toEqual([0, 500, 1000, 1500, 2000]);
    expect(ws.sentOn(Topic.SUBSCRIBE)).toHaveLength(5);
    expect(h.seen.subscriptionFailure).toEqual([{ at: 2000, topics: [Topic.CHAT] }]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ws.sentOn(Topic.SUBSCRIBE)).toHaveLength(5);
  });

  it("Heartbeat every 10 s: aws/ping + aws/heartbeat at 0, 10000 and 20000 ms", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    const beats: number[] = [];
    const record = () => beats.push(Date.now());
    record();
    for (let t = 0; t < 2; t++) {
      answerBeat(ws);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(ws.sentOn(Topic.HEARTBEAT)).toHaveLength(t + 1);
      await vi.advanceTimersByTimeAsync(1);
      record();
    }
    expect(beats).toEqual([0, 10_000, 20_000]);
    expect(ws.sentOn(Topic.PING)).toHaveLength(3);
    expect(ws.sentOn(Topic.HEARTBEAT)).toHaveLength(3);
  });

  it("A ping reply with statusCode 200 is a deep heartbeat success; no pong by the next beat is a failure", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    answerBeat(ws);
    expect(h.seen.deepSuccess).toEqual([0]);
    await vi.advanceTimersByTimeAsync(10_000);
    ws.receive({ topic: Topic.HEARTBEAT });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.seen.deepFailure).toEqual([20_000]);
    ws.receive({ topic: Topic.PING, statusCode: 500, statusContent: "ERROR" });
    expect(h.seen.deepFailure).toEqual([20_000, 20_000]);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
  });

  it("Scheduled reconnect on the transport lifetime: a new URL is fetched exactly 3540 s after open", async () => {
    const h = createHarness();
    await connected(h, true);
    await vi.advanceTimersByTimeAsync(3_539_999);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 3_540_000]);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(h.seen.lost).toEqual([]);
  });
});
