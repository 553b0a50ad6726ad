import { Topic, subscribeResponseFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveEnv } from "../env.js";
import { createSubscriptions } from "./subscriptions.js";

function setup() {
  const requests: { at: number; frame: WebSocketEnvelope }[] = [];
  const updates: string[][] = [];
  const failures: { at: number; topics: string[] }[] = [];
  const subs = createSubscriptions({
    env: resolveEnv(),
    send: (frame) => requests.push({ at: Date.now(), frame }),
    onSubscribed: (topics) => updates.push(topics),
    onFailure: (topics) => failures.push({ at: Date.now(), topics }),
  });
  return { subs, requests, updates, failures };
}

describe("subscriptions", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends an aws/subscribe frame with the topics", () => {
    const { subs, requests } = setup();
    subs.request([Topic.CHAT]);
    expect(requests.map((r) => r.frame)).toEqual([
      { topic: Topic.SUBSCRIBE, content: { topics: [Topic.CHAT] } },
    ]);
  });

  it("Subscription fails after more than 3 unanswered requests: 4 requests 1 s apart, then failure callbacks", () => {
    const { subs, requests, failures } = setup();
    subs.request([Topic.CHAT]);
    vi.advanceTimersByTime(999);
    expect(requests).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(requests.map((r) => r.at)).toEqual([0, 1000]);
    vi.advanceTimersByTime(2_999);
    expect(requests.map((r) => r.at)).toEqual([0, 1000, 2000, 3000]);
    expect(failures).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(failures).toEqual([{ at: 4000, topics: [Topic.CHAT] }]);
    vi.advanceTimersByTime(10_000);
    expect(requests).toHaveLength(4);
  });

  it("Subscription fails after 5 consecutive failures (retry every 500 ms), then failure callbacks fire and it stops", () => {
    const { subs, requests, failures } = setup();
    subs.request([Topic.CHAT]);
    const fail = () => subs.handleFrame(subscribeResponseFrame("failure", [Topic.CHAT]));
    for (let i = 0; i < 4; i++) {
      fail();
      vi.advanceTimersByTime(499);
      expect(requests).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
    }
    expect(requests.map((r) => r.at)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(failures).toEqual([]);
    fail();
    expect(failures).toEqual([{ at: 2000, topics: [Topic.CHAT] }]);
    vi.advanceTimersByTime(10_000);
    expect(requests).toHaveLength(5);
  });

  it("A success response listing topics resets the counters; topics not listed stay pending", () => {
    const { subs, requests, updates, failures } = setup();
    subs.request([Topic.CHAT, "other"]);
    for (let i = 0; i < 4; i++) {
      subs.handleFrame(subscribeResponseFrame("failure", []));
      vi.advanceTimersByTime(500);
    }
    subs.handleFrame(subscribeResponseFrame("success", [Topic.CHAT]));
    expect(updates).toEqual([[Topic.CHAT]]);
    expect(subs.isSubscribed(Topic.CHAT)).toBe(true);
    expect(subs.isSubscribed("other")).toBe(false);
    expect(subs.covers([Topic.CHAT, "other"])).toBe(false);
    // counters reset: four more failures are not yet a subscription failure
    subs.request([]);
    expect(requests.at(-1)?.frame.content).toEqual({ topics: ["other"] });
    for (let i = 0; i < 4; i++) {
      subs.handleFrame(subscribeResponseFrame("failure", []));
      vi.advanceTimersByTime(500);
    }
    expect(failures).toEqual([]);
    subs.handleFrame(subscribeResponseFrame("failure", []));
    expect(failures).toEqual([{ at: expect.any(Number) as number, topics: ["other"] }]);
  });

  it("any aws/subscribe response counts as an answer: no resend after it", () => {
    const { subs, requests } = setup();
    subs.request([Topic.CHAT]);
    subs.handleFrame(subscribeResponseFrame("success", [Topic.CHAT]));
    vi.advanceTimersByTime(10_000);
    expect(requests).toHaveLength(1);
    expect(subs.covers([Topic.CHAT])).toBe(true);
  });

  it("ignores frames on other topics", () => {
    const { subs } = setup();
    expect(subs.handleFrame({ topic: Topic.CHAT, content: "{}" })).toBe(false);
  });
});
