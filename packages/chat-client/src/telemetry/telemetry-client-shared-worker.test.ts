import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InitializationException } from "./errors.js";
import { createTelemetry } from "./telemetry-client.js";
import type { TelemetryOptions } from "./telemetry-client.js";
import { fakeFetch, recordingLogger, settle } from "./test-support/fake-fetch.js";
import type { FakeReply, RecordedRequest } from "./test-support/fake-fetch.js";
import { fakeSharedWorker } from "./test-support/fake-shared-worker.js";
import { INIT_FATAL_MESSAGE } from "./worker-connection.js";

const ENDPOINT = "http://127.0.0.1:8080/telemetry";
const NOW = Date.UTC(2025, 0, 1, 10, 0, 0);

function setup(options: Partial<TelemetryOptions> = {}, reply?: (r: RecordedRequest) => FakeReply) {
  const http = fakeFetch(reply);
  const logger = recordingLogger();
  const telemetry = createTelemetry({
    endpoint: ENDPOINT,
    env: { fetch: http.fetch },
    logger,
    ...options,
  });
  const metricBodies = () =>
    http
      .to("/telemetry/put-metrics")
      .map((r) => r.body as { metricList: Record<string, unknown>[] });
  return { http, logger, telemetry, metricBodies };
}

describe("createTelemetry with a SharedWorker (docs/protocol.md §8.2)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("posts CONFIG first and queues everything else until the worker answers CONFIG", () => {
    const worker = fakeSharedWorker();
    const { telemetry } = setup({ sharedWorker: () => worker, userId: "u-1" });
    expect(telemetry.mode).toBe("shared-worker");
    expect(worker.port.started).toBe(true);
    telemetry.addCountMetric("M");
    expect(worker.port.posted).toEqual([
      {
        type: "CONFIG",
        portId: null,
        message: {
          namespace: "chat-widget",
          endpointUrl: ENDPOINT,
          batchSettings: null,
          dryRunMode: false,
          userId: "u-1",
          accountId: undefined,
          organizationId: undefined,
        },
      },
    ]);
    expect(telemetry.ready).toBe(false);
    worker.reply({ type: "CONFIG", portId: 3 });
    expect(telemetry.ready).toBe(true);
    expect(worker.port.posted.slice(1)).toEqual([
      { type: "METRIC", portId: 3, message: expect.objectContaining({ metricName: "M" }) },
    ]);
    telemetry.close();
    expect(worker.port.posted.at(-1)).toEqual({ type: "CLOSE", portId: 3 });
  });

  it("LOG messages from the worker reach the logger", () => {
    const worker = fakeSharedWorker();
    const { logger } = setup({ sharedWorker: () => worker });
    worker.reply({ type: "CONFIG", portId: 1 });
    worker.reply({
      type: "LOG",
      level: "error",
      message: "Put metrics to service failed",
      detail: { status: 500 },
    });
    expect(logger.entries).toEqual([
      { level: "error", args: ["Put metrics to service failed", { status: 500 }] },
    ]);
  });

  it("init not ready after 5 s logs a fatal message, then telemetry runs in the page", async () => {
    const worker = fakeSharedWorker();
    const { telemetry, logger, metricBodies } = setup({ sharedWorker: () => worker });
    telemetry.addCountMetric("Queued");
    vi.advanceTimersByTime(4_999);
    expect(logger.entries).toEqual([]);
    vi.advanceTimersByTime(1);
    const fatal = logger.entries.find((e) => e.args[0] === INIT_FATAL_MESSAGE);
    expect(fatal?.level).toBe("error");
    expect(fatal?.args[1]).toBeInstanceOf(InitializationException);
    expect((fatal?.args[1] as Error).message).toBe("Initialization failed");
    expect(telemetry.mode).toBe("in-page");
    expect(telemetry.ready).toBe(true);
    expect(worker.port.closed).toBe(true);
    worker.reply({ type: "CONFIG", portId: 1 });
    vi.advanceTimersByTime(30_000);
    await settle();
    expect(metricBodies()[0]!.metricList.map((m) => m.metricName)).toEqual(["Queued"]);
  });

  it("a worker that answers in time gets no fatal message", () => {
    const worker = fakeSharedWorker();
    const { logger } = setup({ sharedWorker: () => worker });
    vi.advanceTimersByTime(4_999);
    worker.reply({ type: "CONFIG", portId: 1 });
    vi.advanceTimersByTime(10_000);
    expect(logger.entries).toEqual([]);
  });

  it("falls back to the page when the SharedWorker cannot be created", () => {
    const { telemetry, logger } = setup({
      sharedWorker: () => {
        throw new DOMException("blocked by CSP", "SecurityError");
      },
    });
    expect(telemetry.mode).toBe("in-page");
    expect(telemetry.ready).toBe(true);
    expect(logger.messages("warn")).toEqual([
      "Telemetry shared worker failed; running telemetry in the page",
    ]);
  });

  it("falls back to the page when the SharedWorker reports an error", async () => {
    const worker = fakeSharedWorker();
    const { telemetry, metricBodies } = setup({ sharedWorker: () => worker });
    telemetry.addCountMetric("Queued");
    worker.fail();
    expect(telemetry.mode).toBe("in-page");
    telemetry.close();
    await settle();
    expect(metricBodies()[0]!.metricList.map((m) => m.metricName)).toEqual(["Queued"]);
  });

  it("useSharedWorker: false keeps telemetry in the page", () => {
    const factory = vi.fn(fakeSharedWorker);
    const { telemetry } = setup({ sharedWorker: factory, useSharedWorker: false });
    expect(factory).not.toHaveBeenCalled();
    expect(telemetry.mode).toBe("in-page");
  });

  it("agent metric retry: an agent count waits in 3000 ms steps until the worker is ready", () => {
    const worker = fakeSharedWorker();
    const { telemetry } = setup({ sharedWorker: () => worker });
    telemetry.addAgentCountMetric("CREATE_PARTICIPANT_CONACK_CALL_COUNT", 1);
    vi.advanceTimersByTime(4_000);
    worker.reply({ type: "CONFIG", portId: 1 });
    const metrics = () => worker.port.posted.filter((m) => m.type === "METRIC");
    vi.advanceTimersByTime(1_999);
    expect(metrics()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(metrics()).toEqual([
      {
        type: "METRIC",
        portId: 1,
        message: {
          metricName: "CREATE_PARTICIPANT_CONACK_CALL_COUNT",
          unit: "Count",
          value: 1,
          timestamp: new Date(NOW + 6_000).toISOString(),
          dimensions: [],
          optionalDimensions: [],
          namespace: "chat-widget",
        },
      },
    ]);
  });
});
