import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toRequestError } from "../core/errors.js";
import {
  FakeWebSocket,
  confirmSubscription,
  connected,
  createHarness,
  failFetches,
  failedToFetch,
  flush,
} from "./test-support/harness.js";

describe("websocket manager: staying connected while running (issue 9)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a URL fetch that gets no answer is retried at 1, 2, 4, 8, 16 s, then every 30 s, and after a 10-minute outage the manager connects", async () => {
    const h = createHarness();
    h.manager.subscribeTopics(["aws/chat"]);
    const fetches = failFetches(h, failedToFetch());
    expect(await h.manager.init(h.fetcher)).toEqual({ websocketInitFailed: false });
    await vi.advanceTimersByTimeAsync(999);
    expect(h.fetchTimes).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 1_000]);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(h.fetchTimes).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000, 61_000, 91_000]);
    await vi.advanceTimersByTimeAsync(600_000 - 91_000);
    expect(h.fetchTimes).toHaveLength(8 + 16);
    expect(h.fetchTimes.at(-1)).toBe(91_000 + 16 * 30_000);
    expect(h.seen.initFailure).toEqual([]);
    expect(h.manager.getState()).toBe("connecting");

    fetches.succeed();
    await vi.advanceTimersByTimeAsync(1_000);
    const ws = FakeWebSocket.last;
    ws.open();
    confirmSubscription(ws);
    expect(h.seen.gain).toEqual([91_000 + 17 * 30_000]);
    expect(h.seen.subscriptionUpdate).toEqual([["aws/chat"]]);
    expect(h.manager.getState()).toBe("connected");
  });

  it("the retry delays take ±30 % jitter from the injected random source", async () => {
    const h = createHarness({ random: 0 });
    failFetches(h, failedToFetch());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(700 + 1_400 + 2_800);
    expect(h.fetchTimes).toEqual([0, 700, 2_100, 4_900]);
  });

  it("answers 500, 503 and 429 are retried like no answer; the fetch that succeeds opens the socket", async () => {
    const h = createHarness();
    const answers = [
      toRequestError("InternalServerException", "oops", 500),
      toRequestError("503", "unavailable", 503),
      toRequestError("ThrottlingException", "slow down", 429),
    ];
    const fetches = failFetches(h, () => answers.shift());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(3_000);
    fetches.succeed();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(h.fetchTimes).toEqual([0, 1_000, 3_000, 7_000]);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(h.seen.initFailure).toEqual([]);
  });

  it("a 403 (the participant left or the chat ended) ends the manager for good, also after failed retries", async () => {
    const h = createHarness();
    const { ws } = await connected(h, true);
    const forbidden = toRequestError("AccessDeniedException", "Forbidden", 403);
    const answers: unknown[] = [failedToFetch(), failedToFetch(), forbidden];
    failFetches(h, () => answers.shift());
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(h.fetchTimes).toEqual([0, 0, 1_000, 3_000]);
    expect(h.seen.initFailure).toEqual([forbidden]);
    expect(h.manager.getState()).toBe("terminated");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.fetchTimes).toHaveLength(4);
  });

  it("going online retries a failed fetch at once instead of waiting out the backoff", async () => {
    const h = createHarness();
    const fetches = failFetches(h, failedToFetch());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(31_000); // fetches at 0, 1, 3, 7, 15, 31 s; next at 61 s
    h.network.online = false;
    await vi.advanceTimersByTimeAsync(250);
    fetches.succeed();
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(250);
    expect(h.fetchTimes.at(-1)).toBe(31_500);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("the page becoming visible and the window regaining focus retry at once", async () => {
    const h = createHarness();
    const fetches = failFetches(h, failedToFetch());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(16_000); // fetches at 0, 1, 3, 7, 15 s; next at 31 s
    h.page.set(true);
    h.page.set(false);
    await flush();
    expect(h.fetchTimes.at(-1)).toBe(16_000);
    await vi.advanceTimersByTimeAsync(1_000);
    h.page.focus();
    await flush();
    expect(h.fetchTimes.at(-1)).toBe(17_000);
    fetches.succeed();
    await vi.advanceTimersByTimeAsync(1_000);
    h.page.focus();
    await flush();
    expect(h.fetchTimes.at(-1)).toBe(18_000);
    FakeWebSocket.last.open();
    h.page.focus();
    await flush();
    expect(h.fetchTimes.at(-1)).toBe(18_000);
  });

  it("a socket whose subscription fails is replaced: the connection is lost and a new URL fetched at once", async () => {
    const h = createHarness();
    h.manager.subscribeTopics(["aws/chat"]);
    void h.manager.init(h.fetcher);
    await flush();
    const first = FakeWebSocket.last;
    first.open();
    // No subscribe answer: resent at 1, 2 and 3 s, failure after the 4th unanswered check.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(h.seen.subscriptionFailure).toEqual([{ at: 4_000, topics: ["aws/chat"] }]);
    expect(h.seen.lost).toEqual([{ at: 4_000, reason: "subscription failed" }]);
    expect(first.readyState).toBe(3);
    expect(h.fetchTimes).toEqual([0, 4_000]);
    const second = FakeWebSocket.last;
    expect(second).not.toBe(first);
    second.open();
    confirmSubscription(second);
    expect(h.seen.subscriptionUpdate).toEqual([["aws/chat"]]);
    expect(h.manager.getState()).toBe("connected");
  });

  it("a URL fetch that never answers (an app's getConnectionToken on a dead network) gives up after 20 s and is retried on the backoff", async () => {
    const h = createHarness();
    const original = h.fetcher.getMockImplementation()!;
    let hang = true;
    h.fetcher.mockImplementation(() => {
      h.fetchTimes.push(Date.now());
      return hang ? new Promise(() => {}) : original();
    });
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(h.fetchTimes).toEqual([0]);
    hang = false;
    await vi.advanceTimersByTimeAsync(1 + 1_000);
    expect(h.fetchTimes.slice(0, 2)).toEqual([0, 21_000]);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(h.seen.initFailure).toEqual([]);
  });
});
