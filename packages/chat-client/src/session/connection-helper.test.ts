import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType, Topic, chatFrame } from "@chat-widget/protocol";
import { noopLogger } from "../env.js";
import { FakeWebSocketManager } from "../test-support/fake-manager.js";
import { recordingLogger } from "../test-support/harness.js";
import { ConnectionRegistry, SharedConnection } from "./connection-helper.js";
import { toRequestError } from "../core/errors.js";

afterEach(() => vi.useRealTimers());

const fetcher = () =>
  Promise.resolve({ webSocketTransport: { url: "wss://x", transportLifeTimeInSeconds: 3540 } });

function open(
  registry: ConnectionRegistry,
  contactId: string,
  manager = new FakeWebSocketManager(),
  shared = false,
) {
  const connection = registry.open({
    contactId,
    initialContactId: contactId,
    logger: noopLogger,
    ...(shared ? { websocketManager: manager } : {}),
    createManager: () => manager,
    fetcher,
  });
  return { connection, manager };
}

describe("connection helper status model (docs/product.md §4)", () => {
  it("initial, then started on start, connected on connection gain, lost on connection lost", () => {
    const { logger, texts } = recordingLogger();
    const manager = new FakeWebSocketManager();
    const helper = new SharedConnection(manager, logger, fetcher);
    expect(helper.status).toBe("NeverStarted");
    helper.start();
    expect(helper.status).toBe("Starting");
    expect(manager.fetchers).toHaveLength(1);
    manager.gain();
    expect(helper.status).toBe("Connected");
    manager.lose();
    expect(helper.status).toBe("ConnectionLost");
    expect(texts()).toEqual([
      "Connection status NeverStarted -> Starting",
      "Connection status Starting -> Connected",
      "Connection status Connected -> ConnectionLost",
    ]);
  });

  it("ended on initialisation failure", () => {
    const manager = new FakeWebSocketManager();
    const helper = new SharedConnection(manager, noopLogger, fetcher);
    const ended = vi.fn();
    helper.events.on("Ended", ended);
    helper.start();
    manager.initFailure();
    expect(helper.status).toBe("Ended");
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it("deep-heartbeat success and failure set their own statuses and are reported each time", () => {
    const manager = new FakeWebSocketManager();
    const helper = new SharedConnection(manager, noopLogger, fetcher);
    const ok = vi.fn();
    helper.events.on("DeepHeartbeatSuccess", ok);
    manager.heartbeat(true);
    manager.heartbeat(true);
    expect(helper.status).toBe("DeepHeartbeatSuccess");
    expect(ok).toHaveBeenCalledTimes(2);
    manager.heartbeat(false);
    expect(helper.status).toBe("DeepHeartbeatFailure");
  });

  it("a duplicate status change is ignored: one event per change", () => {
    const manager = new FakeWebSocketManager();
    const helper = new SharedConnection(manager, noopLogger, fetcher);
    const gained = vi.fn();
    helper.events.on("ConnectionGained", gained);
    manager.gain();
    manager.gain();
    expect(gained).toHaveBeenCalledTimes(1);
  });

  it('incoming content that is not valid JSON is logged as "Wrong message format"', () => {
    const { logger, entries } = recordingLogger();
    const manager = new FakeWebSocketManager();
    const helper = new SharedConnection(manager, logger, fetcher);
    const incoming = vi.fn();
    helper.events.on("IncomingMessage", incoming);
    manager.frame({ topic: Topic.CHAT, content: "{not json" });
    manager.frame({ topic: Topic.CHAT, content: { Id: "1" } });
    expect(incoming).not.toHaveBeenCalled();
    expect(entries.filter((e) => e.level === "error").map((e) => e.text)).toEqual([
      "Wrong message format",
      "Wrong message format",
    ]);
  });

  it("a reconnect refused with 403 after the connection was lost becomes a chat-ended item", async () => {
    const manager = new FakeWebSocketManager();
    const refused = () => Promise.reject(toRequestError("AccessDeniedException", "gone", 403));
    const helper = new SharedConnection(manager, noopLogger, refused);
    const incoming = vi.fn();
    helper.events.on("IncomingMessage", incoming);
    helper.start();
    manager.gain();
    manager.lose();
    await expect(manager.fetch()).rejects.toMatchObject({ statusCode: 403 });
    expect(incoming).toHaveBeenCalledWith(
      expect.objectContaining({ ContentType: ContentType.CHAT_ENDED, Id: "" }),
    );
  });
});

describe("connection helpers shared per contact (customer) and single shared (agent)", () => {
  it("the customer helper is shared per contact", () => {
    const registry = new ConnectionRegistry();
    const a = open(registry, "c1");
    const b = registry.open({
      contactId: "c1",
      initialContactId: "c1",
      logger: noopLogger,
      createManager: () => new FakeWebSocketManager(),
      fetcher,
    });
    const c = open(registry, "c2");
    expect(b.base).toBe(a.connection.base);
    expect(c.connection.base).not.toBe(a.connection.base);
  });

  it("the customer helper is closed when no message subscribers remain", () => {
    const registry = new ConnectionRegistry();
    const { connection: first, manager } = open(registry, "c1");
    const second = registry.open({
      contactId: "c1",
      initialContactId: "c1",
      logger: noopLogger,
      createManager: () => manager,
      fetcher,
    });
    first.events.on("IncomingMessage", () => {});
    second.events.on("IncomingMessage", () => {});
    first.end();
    expect(manager.closed).toBe(0);
    expect(registry.customer.has("c1")).toBe(true);
    second.end();
    expect(manager.closed).toBe(1);
    expect(manager.terminated).toBe(1);
    expect(registry.customer.has("c1")).toBe(false);
  });

  it("the agent helper is one shared instance, replaced if the websocket manager differs", () => {
    const registry = new ConnectionRegistry();
    const managerA = new FakeWebSocketManager();
    const a1 = open(registry, "c1", managerA, true).connection;
    const a2 = open(registry, "c2", managerA, true).connection;
    expect(a2.base).toBe(a1.base);
    const b = open(registry, "c3", new FakeWebSocketManager(), true).connection;
    expect(b.base).not.toBe(a1.base);
    expect(a1.base.status).toBe("Ended");
    expect(managerA.closed).toBe(0);
  });

  it("the per-contact wrapper reports ended once ended, otherwise the shared helper's status", () => {
    const registry = new ConnectionRegistry();
    const { connection, manager } = open(registry, "c1");
    const other = registry.open({
      contactId: "c1",
      initialContactId: "c1",
      logger: noopLogger,
      createManager: () => manager,
      fetcher,
    });
    other.events.on("IncomingMessage", () => {});
    connection.start();
    manager.gain();
    expect(connection.getStatus()).toBe("Connected");
    connection.end();
    expect(connection.getStatus()).toBe("Ended");
    expect(other.getStatus()).toBe("Connected");
  });

  it("items are routed by InitialContactId or ContactId; metadata items always pass (docs/protocol.md §3.3)", () => {
    const registry = new ConnectionRegistry();
    const manager = new FakeWebSocketManager();
    const mine = open(registry, "c1", manager, true).connection;
    const received: string[] = [];
    mine.events.on("IncomingMessage", (item) => received.push(item.Id));
    const base = { AbsoluteTime: "t", Type: "MESSAGE", Content: "x", ContentType: "text/plain" };
    manager.frame(chatFrame({ ...base, Id: "by-initial", InitialContactId: "c1" }));
    manager.frame(
      chatFrame({ ...base, Id: "by-contact", ContactId: "c1", InitialContactId: "c0" }),
    );
    manager.frame(chatFrame({ ...base, Id: "other", ContactId: "c9", InitialContactId: "c9" }));
    manager.frame(chatFrame({ ...base, Id: "meta", Type: "MESSAGEMETADATA" }));
    expect(received).toEqual(["by-initial", "by-contact", "meta"]);
  });
});
