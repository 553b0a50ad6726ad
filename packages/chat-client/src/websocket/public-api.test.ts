import type { WebSocketEnvelope } from "@chat-widget/protocol";
/**
 * Type assertions on the public API (checked by the package typecheck, `tsc -p`), plus the
 * runtime shape of the exports.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as api from "./index.js";
import { createReconnectPolicy, createWebSocketManager } from "./index.js";
import type { ReconnectPolicy, Unsubscribe, WebSocketManager } from "./index.js";

describe("websocket manager public API", () => {
  it("index exports the factory, the reconnect policy and the close reasons", () => {
    expect(Object.keys(api).sort()).toEqual([
      "CloseReason",
      "HEARTBEAT_INTERVAL_MS",
      "MIN_TRANSPORT_LIFETIME_SECONDS",
      "URL_VALIDITY_MS",
      "WebSocketManagerError",
      "createReconnectPolicy",
      "createWebSocketManager",
      "isAllowedWebSocketUrl",
    ]);
  });
  it("createWebSocketManager returns a WebSocketManager", () => {
    expectTypeOf(createWebSocketManager()).toExtend<WebSocketManager>();
    expectTypeOf(createWebSocketManager)
      .parameter(0)
      .toExtend<{ env?: object; logger?: object } | undefined>();
  });
  it("callbacks are typed and return an unsubscribe function", () => {
    const manager = createWebSocketManager();
    expectTypeOf(manager.onMessage).parameter(1).parameter(0).toEqualTypeOf<WebSocketEnvelope>();
    expectTypeOf(manager.onSubscriptionFailure).returns.toEqualTypeOf<Unsubscribe>();
  });
  it("the reconnect policy maps an attempt to a delay or null", () => {
    expectTypeOf(createReconnectPolicy).returns.toEqualTypeOf<ReconnectPolicy>();
    expectTypeOf<ReturnType<ReconnectPolicy["nextDelayMs"]>>().toEqualTypeOf<number | null>();
  });
});
