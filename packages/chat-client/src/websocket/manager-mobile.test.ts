import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toRequestError } from "../core/errors.js";
import {
  FakeWebSocket,
  MOBILE_USER_AGENT,
  confirmSubscription,
  connected,
  createHarness,
  failFetches,
  failedToFetch,
  flush,
} from "./test-support/harness.js";

const mobile = () => createHarness({ userAgent: MOBILE_USER_AGENT });

describe("websocket manager: mobile browsers (docs/protocol.md §3.9)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("Mobile: while the page is hidden and the connection is healthy, no URL is fetched; 500 ms after it becomes visible (not 499) one is, as no socket is open", async () => {
    const h = mobile();
    const { ws } = await connected(h, true);
    await vi.advanceTimersByTimeAsync(1_000);
    h.page.set(true);
    ws.serverClose(1006);
    await flush();
    expect(h.seen.lost).toHaveLength(1);
    // neither the lost connection nor the network coming back fetches while hidden
    h.network.online = false;
    await vi.advanceTimersByTimeAsync(250);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(59_750);
    expect(h.fetchTimes).toEqual([0]);
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(h.fetchTimes).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 61_500]);
    FakeWebSocket.last.open();
    expect(h.seen.gain).toEqual([0, 61_500]);
  });

  it("Mobile: an unanswered heartbeat while the page is hidden reconnects 500 ms after it is visible again, through a secondary socket", async () => {
    const h = mobile();
    const { ws } = await connected(h);
    confirmSubscription(ws);
    h.page.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.seen.deepFailure).toEqual([10_000]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.fetchTimes).toEqual([0]);
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(h.fetchTimes).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 15_500]);
    expect(ws.readyState).toBe(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it("Mobile: becoming visible with a healthy socket open fetches nothing", async () => {
    const h = mobile();
    const { ws } = await connected(h, true);
    h.page.set(true);
    await vi.advanceTimersByTimeAsync(5_000);
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toEqual([ws]);
  });

  it("Mobile: hidden again within the 500 ms, the page stays without reconnect attempts until it is visible for 500 ms", async () => {
    const h = mobile();
    const { ws } = await connected(h, true);
    h.page.set(true);
    ws.serverClose(1006);
    await flush();
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(300);
    h.page.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.fetchTimes).toEqual([0]);
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(h.fetchTimes).toEqual([0, 10_800]);
  });

  it('Mobile: a URL fetch failing with TypeError "Load failed" (the raw error) is retried on the backoff, and the retry that succeeds connects', async () => {
    const h = mobile();
    h.manager.subscribeTopics(["aws/chat"]);
    const fetches = failFetches(h, new TypeError("Load failed"));
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(1_000);
    fetches.succeed();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(h.fetchTimes).toEqual([0, 1_000, 3_000]);
    FakeWebSocket.last.open();
    expect(h.seen.gain).toEqual([3_000]);
    expect(h.manager.getState()).toBe("connected");
  });

  it("Mobile: after a socket opens, the URL fetch backoff starts again from 1000 ms", async () => {
    const h = mobile();
    const fetches = failFetches(h, failedToFetch());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(1_000);
    fetches.succeed();
    await vi.advanceTimersByTimeAsync(2_000);
    FakeWebSocket.last.open();
    await vi.advanceTimersByTimeAsync(1_000);
    failFetches(h, failedToFetch());
    FakeWebSocket.last.serverClose(1006);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.fetchTimes).toEqual([0, 1_000, 3_000, 4_000, 5_000]);
  });

  it("Mobile: while URL fetches are being retried the connection is not healthy, so a hidden page does not hold the retries back", async () => {
    const h = mobile();
    const fetches = failFetches(h, failedToFetch());
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(500);
    h.page.set(true);
    fetches.succeed();
    await vi.advanceTimersByTimeAsync(500);
    expect(h.fetchTimes).toEqual([0, 1_000]);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("Mobile: a URL fetch that fails after the page went hidden is retried once the page has been visible for 500 ms", async () => {
    const h = mobile();
    const { ws } = await connected(h, true);
    let reject: (error: unknown) => void = () => {};
    h.fetcher.mockImplementationOnce(() => new Promise((_, no) => (reject = no)));
    ws.serverClose(1006);
    await flush();
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    h.page.set(true);
    reject(failedToFetch());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    h.page.set(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 10_500]);
    expect(h.manager.getState()).toBe("lost");
  });

  it("Mobile: any other URL fetch failure (HTTP 403) still terminates the manager", async () => {
    const h = mobile();
    const forbidden = toRequestError("AccessDeniedException", "Forbidden", 403);
    h.fetcher.mockRejectedValueOnce(forbidden);
    expect(await h.manager.init(h.fetcher)).toEqual({
      websocketInitFailed: true,
      error: forbidden,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(h.manager.getState()).toBe("terminated");
  });

  it("Desktop: a hidden page holds nothing back; a socket that closes while the page is hidden is refetched at once", async () => {
    const h = createHarness();
    const { ws } = await connected(h, true);
    h.page.set(true);
    await vi.advanceTimersByTimeAsync(1_000);
    ws.serverClose(1006);
    await flush();
    expect(h.fetchTimes).toEqual([0, 1_000]);
  });

  it("The manager listens to visibility and focus changes from init until it is closed or terminated", async () => {
    const h = mobile();
    const listening = () => [h.page.listeners.size, h.page.focusListeners.size];
    expect(listening()).toEqual([0, 0]);
    await connected(h, true);
    expect(listening()).toEqual([1, 1]);
    h.manager.closeWebSocket();
    expect(listening()).toEqual([0, 0]);
    void h.manager.init(h.fetcher);
    await flush();
    expect(listening()).toEqual([1, 1]);
    h.manager.terminate();
    expect(listening()).toEqual([0, 0]);
  });
});
