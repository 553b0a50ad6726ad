import { Topic } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CloseReason } from "./constants.js";
import { WebSocketManagerError } from "./errors.js";
import { createWebSocketManager } from "./manager.js";
import { FakeWebSocket, connected, createHarness, flush } from "./test-support/harness.js";

describe("websocket manager: closing, termination and initialisation failure", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closeWebSocket closes with code 1000 "[Primary] WebSocket User request to close WebSocket" and stops the timers', async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    const sentBefore = ws.rawSent.length;
    h.manager.closeWebSocket();
    expect(ws.closedWith).toEqual({
      code: 1000,
      reason: "[Primary] WebSocket User request to close WebSocket",
    });
    expect(CloseReason.USER_REQUEST).toBe("[Primary] WebSocket User request to close WebSocket");
    h.network.online = false;
    await vi.advanceTimersByTimeAsync(4_000_000);
    h.network.online = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ws.rawSent).toHaveLength(sentBefore);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(h.seen.lost).toEqual([]);
    expect(h.manager.getState()).toBe("closed");
  });

  it("after closeWebSocket the manager stays usable for a later init", async () => {
    const h = createHarness();
    await connected(h);
    h.manager.closeWebSocket();
    const result = h.manager.init(h.fetcher);
    await flush();
    expect(await result).toEqual({ websocketInitFailed: false });
    FakeWebSocket.last.open();
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(FakeWebSocket.last.sent[0]).toEqual({
      topic: Topic.SUBSCRIBE,
      content: { topics: [Topic.CHAT] },
    });
    expect(h.seen.gain).toHaveLength(2);
  });

  it('terminate closes with code 1000 "[Primary] WebSocket Terminating WebSocket Manager" and stops everything for good', async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    h.manager.terminate();
    expect(ws.closedWith).toEqual({
      code: 1000,
      reason: "[Primary] WebSocket Terminating WebSocket Manager",
    });
    await vi.advanceTimersByTimeAsync(100_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    const again = await h.manager.init(h.fetcher);
    expect(again.websocketInitFailed).toBe(true);
    expect(again.error).toBeInstanceOf(WebSocketManagerError);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
    expect(h.manager.getState()).toBe("terminated");
  });

  it.each([
    ["a missing URL", { url: undefined }, "MISSING_URL"],
    ["a URL that does not start with wss://", { url: "ws://chat.example.com/ws" }, "INVALID_URL"],
    ["a transport lifetime under 300 s", { transportLifeTimeInSeconds: 299 }, "INVALID_LIFETIME"],
  ])("Initialisation failure terminates the manager: %s", async (_label, transport, code) => {
    const h = createHarness({ transport: transport as never });
    const result = await h.manager.init(h.fetcher);
    expect(result.websocketInitFailed).toBe(true);
    expect(result.error).toMatchObject({ code });
    expect(h.seen.initFailure).toEqual([result.error]);
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(h.manager.getState()).toBe("terminated");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.fetcher).toHaveBeenCalledTimes(1);
  });

  it("ws:// is accepted for a loopback host (docs/decisions.md #11)", async () => {
    const h = createHarness({ transport: { url: "ws://127.0.0.1:8080/ws?token=t" } });
    const result = await h.manager.init(h.fetcher);
    expect(result).toEqual({ websocketInitFailed: false });
    expect(FakeWebSocket.last.url).toBe("ws://127.0.0.1:8080/ws?token=t");
  });

  it("An invalid configuration on a later reconnect also terminates the manager", async () => {
    let lifetime = 3540;
    const h = createHarness({ transport: () => ({ transportLifeTimeInSeconds: lifetime }) });
    const { ws } = await connected(h);
    lifetime = 10;
    ws.serverClose(1006);
    await flush();
    expect(h.seen.initFailure).toHaveLength(1);
    expect(h.manager.getState()).toBe("terminated");
  });

  it("The fetcher rejecting terminates the manager and hands the very error to the init-failure callbacks", async () => {
    const h = createHarness();
    const { ws } = await connected(h);
    const forbidden = Object.assign(new Error("Forbidden"), { statusCode: 403 });
    h.fetcher.mockRejectedValueOnce(forbidden);
    ws.serverClose(1006);
    await flush();
    expect(h.seen.lost).toHaveLength(1);
    expect(h.seen.initFailure).toEqual([forbidden]);
    expect(h.manager.getState()).toBe("terminated");
  });

  it("init resolves with the failure when the first fetch is refused for good", async () => {
    const h = createHarness();
    const error = Object.assign(new Error("Forbidden"), { statusCode: 403 });
    h.fetcher.mockRejectedValueOnce(error);
    expect(await h.manager.init(h.fetcher)).toEqual({ websocketInitFailed: true, error });
    expect(h.seen.initFailure).toEqual([error]);
  });

  it("new WebSocket throwing terminates the manager", async () => {
    const h = createHarness();
    const thrown = new SyntaxError("bad url");
    const manager = createWebSocketManager({
      env: {
        WebSocket: class {
          constructor() {
            throw thrown;
          }
        } as never,
        isOnline: () => true,
      },
    });
    const failures: unknown[] = [];
    manager.onInitFailure((e) => failures.push(e));
    const result = await manager.init(h.fetcher);
    expect(result.websocketInitFailed).toBe(true);
    expect(result.error).toMatchObject({ code: "SOCKET_CREATE_FAILED", cause: thrown });
    expect(failures).toEqual([result.error]);
    expect(manager.getState()).toBe("terminated");
  });
});
