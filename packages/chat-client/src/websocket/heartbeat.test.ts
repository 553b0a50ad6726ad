import { Topic, pingResponseFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveEnv } from "../env.js";
import { createHeartbeat } from "./heartbeat.js";

function setup(open = { value: true }) {
  const sent: { at: number; topic: string | undefined }[] = [];
  const calls = { success: 0, failure: 0, timeout: 0 };
  const heartbeat = createHeartbeat({
    env: resolveEnv(),
    isOpen: () => open.value,
    send: (frame: WebSocketEnvelope) => sent.push({ at: Date.now(), topic: frame.topic }),
    onDeepSuccess: () => calls.success++,
    onDeepFailure: () => calls.failure++,
    onTimeout: () => calls.timeout++,
  });
  return { heartbeat, sent, calls, open };
}

describe("heartbeat", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("Heartbeat every 10 s, the first right after open: aws/ping then aws/heartbeat at 0, 10000, 20000", () => {
    const { heartbeat, sent } = setup();
    heartbeat.start();
    const answer = () => {
      heartbeat.handleFrame(pingResponseFrame(200));
      heartbeat.handleFrame({ topic: Topic.HEARTBEAT });
    };
    answer();
    vi.advanceTimersByTime(9_999);
    expect(sent).toEqual([
      { at: 0, topic: Topic.PING },
      { at: 0, topic: Topic.HEARTBEAT },
    ]);
    vi.advanceTimersByTime(1);
    answer();
    vi.advanceTimersByTime(10_000);
    expect(sent.map((s) => s.at)).toEqual([0, 0, 10_000, 10_000, 20_000, 20_000]);
  });

  it("A ping reply with statusCode 200 is a deep heartbeat success; any other status is a failure", () => {
    const { heartbeat, calls } = setup();
    heartbeat.start();
    heartbeat.handleFrame(pingResponseFrame(200));
    expect(calls).toMatchObject({ success: 1, failure: 0 });
    heartbeat.handleFrame({ topic: Topic.HEARTBEAT });
    vi.advanceTimersByTime(10_000);
    heartbeat.handleFrame(pingResponseFrame(500));
    expect(calls).toMatchObject({ success: 1, failure: 1, timeout: 0 });
  });

  it("Deep-heartbeat failure when no pong arrives by the next beat (no reconnect by itself)", () => {
    const { heartbeat, calls, sent } = setup();
    heartbeat.start();
    heartbeat.handleFrame({ topic: Topic.HEARTBEAT });
    vi.advanceTimersByTime(9_999);
    expect(calls.failure).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual({ success: 0, failure: 1, timeout: 0 });
    expect(sent).toHaveLength(4);
  });

  it("An unanswered heartbeat at the next beat stops the heartbeat and reconnects", () => {
    const { heartbeat, calls, sent } = setup();
    heartbeat.start();
    heartbeat.handleFrame(pingResponseFrame(200));
    vi.advanceTimersByTime(9_999);
    expect(calls.timeout).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.timeout).toBe(1);
    expect(heartbeat.running).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(2);
    expect(calls.timeout).toBe(1);
  });

  it("A beat on a socket that is not open is a deep heartbeat failure and reconnects", () => {
    const open = { value: true };
    const { heartbeat, calls } = setup(open);
    heartbeat.start();
    heartbeat.handleFrame(pingResponseFrame(200));
    heartbeat.handleFrame({ topic: Topic.HEARTBEAT });
    open.value = false;
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual({ success: 1, failure: 1, timeout: 1 });
  });

  it("keeps a wall-clock deadline: a beat whose timer never fired (sleeping laptop) runs on the next check", () => {
    const { heartbeat, calls } = setup();
    heartbeat.start();
    // the machine sleeps: the clock jumps, no timer fires
    vi.setSystemTime(45_000);
    heartbeat.checkOverdue();
    expect(calls.timeout).toBe(1);
    expect(calls.failure).toBe(1);
  });

  it("the wall-clock check does nothing before the beat is due", () => {
    const { heartbeat, sent, calls } = setup();
    heartbeat.start();
    vi.setSystemTime(9_999);
    heartbeat.checkOverdue();
    expect(sent).toHaveLength(2);
    expect(calls.timeout).toBe(0);
  });

  it("stop ends the beats", () => {
    const { heartbeat, sent } = setup();
    heartbeat.start();
    heartbeat.stop();
    vi.advanceTimersByTime(100_000);
    heartbeat.checkOverdue();
    expect(sent).toHaveLength(2);
  });
});
