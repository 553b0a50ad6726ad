import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import {
  ParticipantClient,
  REQUEST_TIMEOUT_MS,
  defaultEndpoint,
  getParticipantClient,
  retryDelayMs,
} from "./participant-client.js";
import { resolveEnv } from "../env.js";
import { noopLogger } from "../env.js";
import { FakeParticipantService } from "../test-support/fake-participant-service.js";
import { START, testEnv, useFakeClock } from "../test-support/harness.js";
import type { RequestError } from "../core/errors.js";

afterEach(() => vi.useRealTimers());

function setup() {
  useFakeClock();
  const service = new FakeParticipantService();
  const env = resolveEnv(testEnv(service));
  const client = new ParticipantClient({
    endpoint: "https://p.example.com",
    env,
    logger: noopLogger,
  });
  return { service, client, env };
}

describe("participant HTTP client (docs/protocol.md §1)", () => {
  it("the default endpoint is https://participant.connect.<region>.amazonaws.com", () => {
    expect(defaultEndpoint("eu-west-2")).toBe(
      "https://participant.connect.eu-west-2.amazonaws.com",
    );
  });

  it("sends Content-Type: application/json and x-amz-bearer only, to {endpoint}/participant/...", async () => {
    const { service, client } = setup();
    await client.sendMessage("conn-token", "hello", "text/plain");
    const [request] = service.requests;
    expect(request!.url).toBe("https://p.example.com/participant/message");
    expect(request!.method).toBe("POST");
    expect(request!.headers).toEqual({
      "Content-Type": "application/json",
      "x-amz-bearer": "conn-token",
    });
    expect(request!.body).toEqual({
      ClientToken: "uuid-1",
      Content: "hello",
      ContentType: "text/plain",
    });
  });

  it("a customer's CreateParticipantConnection body has Type and no ConnectParticipant", async () => {
    const { service, client } = setup();
    await client.createParticipantConnection("pt", ["WEBSOCKET", "CONNECTION_CREDENTIALS"]);
    expect(service.requests[0]!.body).toEqual({ Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] });
    expect(service.requests[0]!.headers["x-amz-bearer"]).toBe("pt");
  });

  it("success resolves the body plus $metadata", async () => {
    const { service, client } = setup();
    service.on("SendEvent", () => ({
      body: { Id: "e1", AbsoluteTime: "t" },
      headers: { "x-amzn-RequestId": "req-1" },
    }));
    const result = await client.sendEvent("tok", ContentType.READ_RECEIPT, '{"messageId":"m"}');
    expect(result).toEqual({
      Id: "e1",
      AbsoluteTime: "t",
      $metadata: { httpStatusCode: 200, requestId: "req-1", attempts: 1, totalRetryDelay: 0 },
    });
  });

  it("errors are named like the AWS SDK: header x-amzn-ErrorType first, cleaned after ':'", async () => {
    const { service, client } = setup();
    service.on("SendMessage", () => ({
      status: 403,
      headers: { "x-amzn-ErrorType": "AccessDeniedException:http://internal.amazon.com/x" },
      body: { message: "denied" },
    }));
    const error = (await client
      .sendMessage("t", "hi", "text/plain")
      .catch((e: unknown) => e)) as RequestError;
    expect(error.type).toBe("AccessDeniedException");
    expect(error.message).toBe("denied");
    expect(error.statusCode).toBe(403);
    expect(Array.isArray(error.stack)).toBe(true);
  });

  it("errors are named from body __type after '#', message from Message", async () => {
    const { service, client } = setup();
    service.on("SendMessage", () => ({
      status: 400,
      body: { __type: "com.amazonaws.connectparticipant#ValidationException", Message: "bad" },
    }));
    const error = (await client
      .sendMessage("t", "hi", "text/plain")
      .catch((e: unknown) => e)) as RequestError;
    expect(error).toMatchObject({ type: "ValidationException", message: "bad", statusCode: 400 });
  });

  it("an error without a name is named by its status code", async () => {
    const { service, client } = setup();
    service.on("SendMessage", () => ({ status: 404, body: "not json" }));
    const error = (await client
      .sendMessage("t", "hi", "text/plain")
      .catch((e: unknown) => e)) as RequestError;
    expect(error.type).toBe("404");
  });

  it("throttling is retried, 3 attempts in total with the same ClientToken, after random × 2^n × 500 ms", async () => {
    const { service, client } = setup();
    service.on("SendMessage", () => ({
      status: 429,
      body: { __type: "ThrottlingException", message: "slow" },
    }));
    const outcome = client.sendMessage("t", "hi", "text/plain").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(service.calls("SendMessage")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(retryDelayMs(1, true, () => 0.5) - 1);
    expect(service.calls("SendMessage")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.calls("SendMessage")).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(retryDelayMs(2, true, () => 0.5));
    expect(service.calls("SendMessage")).toHaveLength(3);
    expect(((await outcome) as RequestError).type).toBe("ThrottlingException");
    expect(new Set(service.calls("SendMessage").map((r) => r.body!.ClientToken)).size).toBe(1);
    expect(retryDelayMs(1, true, () => 0.5)).toBe(500);
    expect(retryDelayMs(2, false, () => 0.5)).toBe(200);
  });

  it("a 429's Retry-After is the least the client waits before trying again (capped at 30 s)", async () => {
    const { service, client } = setup();
    let retryAfter = "3";
    service.on("SendMessage", () => ({
      status: 429,
      headers: { "Retry-After": retryAfter },
      body: { __type: "ThrottlingException", message: "slow" },
    }));
    const outcome = client.sendMessage("t", "hi", "text/plain").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    retryAfter = "3600";
    await vi.advanceTimersByTimeAsync(2_999);
    expect(service.calls("SendMessage")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.calls("SendMessage")).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(service.calls("SendMessage")).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.calls("SendMessage")).toHaveLength(3);
    expect(((await outcome) as RequestError).type).toBe("ThrottlingException");
  });

  it("403 is not retried", async () => {
    const { service, client } = setup();
    service.on("SendMessage", () => ({ status: 403, body: { __type: "AccessDeniedException" } }));
    await client.sendMessage("t", "hi", "text/plain").catch(() => {});
    expect(service.calls("SendMessage")).toHaveLength(1);
  });

  it("typing events are throttled: further calls within 10000 ms return the first call's promise", async () => {
    const { service, client } = setup();
    const first = client.sendEvent("t", ContentType.TYPING);
    vi.setSystemTime(START + 9999);
    const second = client.sendEvent("t", ContentType.TYPING);
    expect(second).toBe(first);
    await first;
    expect(service.calls("SendEvent")).toHaveLength(1);
    expect(service.calls("SendEvent")[0]!.body).toEqual({
      ClientToken: "uuid-1",
      ContentType: ContentType.TYPING,
    });
    vi.setSystemTime(START + 10000);
    await client.sendEvent("t", ContentType.TYPING);
    expect(service.calls("SendEvent")).toHaveLength(2);
  });

  it("DescribeView is a GET with the view token as one encoded path segment", async () => {
    const { service, client } = setup();
    await client.describeView("t", "a/b");
    expect(service.requests[0]!.url).toBe("https://p.example.com/participant/views/a%2Fb");
    expect(service.requests[0]!.method).toBe("GET");
    expect(service.requests[0]!.headers).toEqual({ "x-amz-bearer": "t" });
  });

  it("clients are kept per endpoint and environment", () => {
    const env = resolveEnv();
    const a = getParticipantClient("us-west-2", undefined, env, noopLogger);
    expect(getParticipantClient("us-west-2", undefined, env, noopLogger)).toBe(a);
    expect(getParticipantClient("eu-west-2", undefined, env, noopLogger)).not.toBe(a);
  });
});

describe("request timeout (issue 9)", () => {
  it("a request with no answer fails as TimeoutError (no status: transient) after exactly 15 s, and its fetch is aborted", async () => {
    useFakeClock();
    let signal: AbortSignal | undefined;
    const env = resolveEnv({
      ...testEnv(new FakeParticipantService()),
      fetch: (_url, init) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>(() => {});
      },
    });
    const client = new ParticipantClient({
      endpoint: "https://p.example.com",
      env,
      logger: noopLogger,
    });
    let outcome: unknown;
    client.sendMessage("t", "hi", "text/plain").catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(outcome).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toMatchObject({ type: "TimeoutError", statusCode: undefined });
    expect(signal?.aborted).toBe(true);
    expect(REQUEST_TIMEOUT_MS).toBe(15_000);
  });

  it("an answer whose body never completes times out too", async () => {
    useFakeClock();
    const env = resolveEnv({
      ...testEnv(new FakeParticipantService()),
      fetch: () =>
        Promise.resolve(new Response(new ReadableStream({ start() {} }), { status: 200 })),
    });
    const client = new ParticipantClient({
      endpoint: "https://p.example.com",
      env,
      logger: noopLogger,
    });
    const outcome = client.getTranscript("t", {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await outcome).toMatchObject({ type: "TimeoutError" });
  });
});
