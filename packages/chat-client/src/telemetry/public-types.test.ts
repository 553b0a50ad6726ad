// Type assertions, checked by `tsc -p packages/chat-client` (a *.test-d.ts would need a root tsconfig for vitest).
import { describe, expectTypeOf, it } from "vitest";
import type { PortLike, SessionMetricSource, SharedWorkerFactory, Telemetry } from "./index.js";
import { attachSessionMetrics, createTelemetry } from "./index.js";
import type { ChatSession } from "../session/chat-session.js";

describe("telemetry public types", () => {
  it("a DOM SharedWorker constructor call is a SharedWorkerFactory, its port a PortLike", () => {
    expectTypeOf<() => SharedWorker>().toExtend<SharedWorkerFactory>();
    expectTypeOf<MessagePort>().toExtend<PortLike>();
  });

  it("createTelemetry returns the Telemetry API", () => {
    expectTypeOf(createTelemetry).returns.toEqualTypeOf<Telemetry>();
    expectTypeOf<Telemetry["addCountMetric"]>().parameters.toEqualTypeOf<
      [metricName: string, dimensions?: Record<string, unknown>]
    >();
  });

  it("a session whose handlers take typed arguments is a SessionMetricSource", () => {
    interface Session {
      onConnectionEstablished(cb: () => void): () => void;
      onConnectionLost(cb: (info: { reason?: string }) => void): () => void;
      onMessage(cb: (event: { data: { Id: string } }) => void): () => void;
      onDeepHeartbeatSuccess(cb: () => void): () => void;
      onDeepHeartbeatFailure(cb: () => void): () => void;
      onEnded(cb: (event: { chatDetails: unknown }) => void): () => void;
    }
    expectTypeOf<Session>().toExtend<SessionMetricSource>();
    expectTypeOf<ChatSession>().toExtend<SessionMetricSource>();
    expectTypeOf(attachSessionMetrics).returns.toEqualTypeOf<() => void>();
  });
});
