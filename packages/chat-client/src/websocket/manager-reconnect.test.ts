import { Topic } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FakeWebSocket,
  autoAnswer,
  connected,
  createHarness,
  flush,
} from "./test-support/harness.js";

/** Creation times of every socket so far. */
const createdAt: number[] = [];

describe("websocket manager: reconnecting", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    createdAt.length = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const trackCreation = () => {
    const original = FakeWebSocket.instances.push.bind(FakeWebSocket.instances);
    FakeWebSocket.instances.push = (...items: FakeWebSocket[]) => {
      createdAt.push(Date.now());
      return original(...items);
    };
  };

  it("Connection lost is emitted once per outage when the only open socket closes (any code), then a URL is fetched immediately", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    await vi.advanceTimersByTimeAsync(500);
    ws.serverClose(1000, "bye");
    expect(h.seen.lost).toEqual([{ at: 500, reason: "bye" }]);
    await flush();
    expect(h.fetchTimes).toEqual([0, 500]);
    // the next socket fails before opening: still the same outage
    FakeWebSocket.last.fail();
    await vi.advanceTimersByTimeAsync(1000);
    FakeWebSocket.last.serverClose(1006);
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.seen.lost).toHaveLength(1);
    FakeWebSocket.last.open();
    expect(h.seen.gain).toEqual([0, 3500]);
    expect(h.manager.getState()).toBe("connected");
    FakeWebSocket.last.serverClose(4000);
    expect(h.seen.lost).toHaveLength(2);
  });

  it("Open check 1 s after new WebSocket: a socket not open by then is retried with the same URL after the back-off delay, and replaced only then", async () => {
    const h = createHarness();
    trackCreation();
    h.manager.subscribeTopics([Topic.CHAT]);
    void h.manager.init(h.fetcher);
    await flush();
    const first = FakeWebSocket.last;
    await vi.advanceTimersByTimeAsync(1_000);
    // Still connecting: kept until the retry (a loaded server answers late).
    expect(first.closedWith).toBeNull();
    // 1 s back-off (no jitter with random 0.5)
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.readyState).toBe(3);
    expect(createdAt).toEqual([0, 2000]);
    expect(FakeWebSocket.last.url).toBe(first.url);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
  });

  it("a socket that opens after the 1 s check but before the retry is used, and the retry is called off (issue 23)", async () => {
    const h = createHarness();
    trackCreation();
    h.manager.subscribeTopics([Topic.CHAT]);
    void h.manager.init(h.fetcher);
    await flush();
    const slow = FakeWebSocket.last;
    autoAnswer(slow);
    await vi.advanceTimersByTimeAsync(1_500);
    slow.open();
    expect(h.manager.getState()).toBe("connected");
    expect(h.seen.gain).toEqual([1_500]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(createdAt).toEqual([0]);
    expect(slow.closedWith).toBeNull();
  });

  it("sockets that each take 1.5 s to open still connect: the session is never kept lost by a slow server (issue 23)", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    trackCreation();
    ws.serverClose(1001, "server shutting down");
    await flush();
    const next = FakeWebSocket.last;
    expect(next).not.toBe(ws);
    await vi.advanceTimersByTimeAsync(1_500);
    next.open();
    expect(h.manager.getState()).toBe("connected");
    expect(h.seen.lost).toHaveLength(1);
    expect(h.seen.gain).toHaveLength(2);
  });

  it("URL validity 85 s: the same URL is retried only while now + delay ≤ fetchTime + 85 s, otherwise a new URL is fetched", async () => {
    const h = createHarness();
    trackCreation();
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(67_999);
    // open checks at +1 s; delays 1, 2, 4, 8, 16, 30 s
    expect(createdAt).toEqual([0, 2000, 5000, 10_000, 19_000, 36_000, 67_000]);
    expect(h.fetchTimes).toEqual([0]);
    // at 68 000 the next 30 s delay would end at 98 000 > 85 000: fetch a new URL instead
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 68_000]);
    expect(createdAt.at(-1)).toBe(68_000);
  });

  it("Reconnect back-off with 30% jitter comes from the injected random source", async () => {
    const h = createHarness({ random: 0 });
    trackCreation();
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(6_000);
    // open check at 1000, then 700 ms (-30 %); check at 2700, then 1400 ms
    expect(createdAt).toEqual([0, 1700, 4100]);
  });

  it("After a successful open, back-off state resets", async () => {
    const h = createHarness();
    trackCreation();
    void h.manager.init(h.fetcher);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(createdAt).toEqual([0, 2000, 5000]);
    FakeWebSocket.last.open();
    await vi.advanceTimersByTimeAsync(500);
    FakeWebSocket.last.serverClose(1006);
    await flush();
    expect(createdAt.at(-1)).toBe(5500);
    await vi.advanceTimersByTimeAsync(2000);
    // open check at 6500, then the first delay again: 1000 ms
    expect(createdAt.at(-1)).toBe(7500);
  });

  it("A socket that closes before it opens is retried with the same URL after the back-off delay", async () => {
    const h = createHarness();
    trackCreation();
    void h.manager.init(h.fetcher);
    await flush();
    FakeWebSocket.last.fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(createdAt).toEqual([0, 1000]);
    expect(h.seen.lost).toEqual([]);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
  });

  it("Only one URL fetch runs at a time", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    let release: () => void = () => {};
    h.fetcher.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          release = () =>
            resolve({ webSocketTransport: { url: ws.url, transportLifeTimeInSeconds: 3540 } });
        }),
    );
    ws.serverClose(1006);
    h.network.online = false;
    await vi.advanceTimersByTimeAsync(250);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(250);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    release();
    await flush();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it("No URL fetch while offline; going online with no open socket fetches at the next 250 ms check", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    await vi.advanceTimersByTimeAsync(100);
    h.network.online = false;
    ws.serverClose(1006);
    await flush();
    expect(h.seen.lost).toHaveLength(1);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    h.network.online = true;
    // checks run at 250 ms steps from init: the next one is at 5 250
    await vi.advanceTimersByTimeAsync(149);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 5_250]);
  });

  it("An outage shorter than one 250 ms network check still retries the skipped URL fetch at the next check", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    await vi.advanceTimersByTimeAsync(100);
    h.network.online = false;
    ws.serverClose(1006);
    await flush();
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    // back online 50 ms later: the monitor never sees the network go offline
    await vi.advanceTimersByTimeAsync(50);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(99);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetchTimes).toEqual([0, 250]);
  });

  it("init while offline fetches nothing until the network comes back", async () => {
    const h = createHarness();
    h.network.online = false;
    expect(await h.manager.init(h.fetcher)).toEqual({ websocketInitFailed: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.fetcher).not.toHaveBeenCalled();
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(250);
    expect(h.fetchTimes).toEqual([1_250]);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("Going offline only logs: the open socket stays and nothing is fetched", async () => {
    const h = createHarness();
    const { ws } = await connected(h, true);
    h.network.online = false;
    await vi.advanceTimersByTimeAsync(250);
    expect(h.logger.info).toHaveBeenCalledWith("WebSocketManager: network is offline");
    expect(ws.readyState).toBe(1);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(250);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
  });

  it("No URL fetch after termination", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    h.manager.terminate();
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("A fetch that resolves after termination opens nothing", async () => {
    const h = createHarness();
    const pending = h.manager.init(h.fetcher);
    h.manager.terminate();
    expect(await pending).toMatchObject({ websocketInitFailed: true });
    await flush();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it("A heartbeat whose timer never fired (sleeping laptop) is caught by the wall-clock deadline", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    confirmAll(ws);
    vi.setSystemTime(Date.now() + 60_000);
    await vi.advanceTimersByTimeAsync(250);
    expect(h.fetcher).toHaveBeenCalledTimes(2);
    expect(h.seen.deepFailure).toHaveLength(1);
  });

  it("the service answering an HTTP request brings a websocket retry waiting on a long backoff forward to the base delay (issue 23)", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    trackCreation();
    ws.serverClose(1001, "server shutting down");
    await flush();
    // New sockets refused in turn: the retry waits longer each time (1, 2, 4, 8, 16 s), 30 s
    // after the sixth.
    for (let i = 0; i < 5; i++) {
      const count = FakeWebSocket.instances.length;
      FakeWebSocket.last.serverClose(1006);
      while (FakeWebSocket.instances.length === count) await vi.advanceTimersByTimeAsync(100);
    }
    expect(createdAt).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000]);
    FakeWebSocket.last.serverClose(1006);
    const refusedAt = Date.now();
    const created = createdAt.length;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(createdAt).toHaveLength(created);
    h.manager.serviceAnswered();
    await vi.advanceTimersByTimeAsync(999);
    expect(createdAt).toHaveLength(created);
    await vi.advanceTimersByTimeAsync(1);
    expect(createdAt).toHaveLength(created + 1);
    expect(createdAt.at(-1)).toBe(refusedAt + 3_000);
    autoAnswer(FakeWebSocket.last);
    FakeWebSocket.last.open();
    expect(h.manager.getState()).toBe("connected");
    // Answered while connected: nothing moves.
    h.manager.serviceAnswered();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(createdAt).toHaveLength(created + 1);
  });

  it("a socket still connecting when no retry can be scheduled (URL expired, offline) is given up, so coming online reconnects (issue 23)", async () => {
    const h = createHarness();
    trackCreation();
    h.manager.subscribeTopics([Topic.CHAT]);
    void h.manager.init(h.fetcher);
    // Sockets that never open nor close: each replaced by the next retry.
    await vi.advanceTimersByTimeAsync(67_500);
    expect(createdAt).toEqual([0, 2000, 5000, 10_000, 19_000, 36_000, 67_000]);
    h.network.online = false;
    // 68 000: the last one's open check; its URL has expired and no fetch can go offline.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.fetchTimes).toEqual([0]);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(h.fetchTimes).toHaveLength(2);
    const next = FakeWebSocket.last;
    autoAnswer(next);
    next.open();
    expect(h.manager.getState()).toBe("connected");
  });

  it("the service answering does not hurry the retry of a socket that is still connecting (issue 23)", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    trackCreation();
    ws.serverClose(1001, "server shutting down");
    await flush();
    // New sockets that hang: replaced by retries 1 s after each open check, then 2 s, then 4 s.
    await vi.advanceTimersByTimeAsync(6_500);
    expect(createdAt).toEqual([0, 2_000, 5_000]);
    h.manager.serviceAnswered();
    await vi.advanceTimersByTimeAsync(3_499);
    expect(createdAt).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(createdAt).toEqual([0, 2_000, 5_000, 10_000]);
  });
});

function confirmAll(ws: FakeWebSocket) {
  ws.receive({ topic: Topic.SUBSCRIBE, content: { status: "success", topics: [Topic.CHAT] } });
}
