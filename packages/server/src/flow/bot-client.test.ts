import { ContentType } from "@chat-widget/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  askBot,
  BOT_MAX_BODY_BYTES,
  BOT_MAX_STREAM_BYTES,
  BotError,
  type BotEvent,
  type BotRequest,
} from "./bot-client.js";
import type { FlowBot } from "./types.js";

afterEach(() => {
  vi.useRealTimers();
});

const request: BotRequest = {
  requestId: "r-1",
  contactId: "c-1",
  message: { contentType: ContentType.TEXT_PLAIN, content: "Hello?" },
  attributes: { orderNumber: "A-1" },
};
const bot: FlowBot = { url: "https://bot.example/answer", timeoutMs: 1000, maxAnswerMs: 5000 };

/** A fetch that answers from a body the test writes to, as it likes; it fails when aborted. */
function fakeBot(contentType = "text/event-stream", status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const fetch = (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
    return Promise.resolve(
      new Response(body, { status, headers: { "content-type": contentType } }),
    );
  };
  return {
    calls,
    fetch: fetch as typeof globalThis.fetch,
    write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  };
}

/** Collect what askBot yields until it ends; the error it ended with, if any. */
function collect(events: AsyncGenerator<BotEvent>) {
  const got: BotEvent[] = [];
  const state: { error: unknown; done: boolean } = { error: undefined, done: false };
  const finished = (async () => {
    try {
      for await (const e of events) got.push(e);
    } catch (error) {
      state.error = error;
    }
    state.done = true;
  })();
  return { got, state, finished };
}

const json = (value: unknown) => {
  const b = fakeBot("application/json; charset=utf-8");
  b.write(typeof value === "string" ? value : JSON.stringify(value));
  b.end();
  return b;
};

async function failure(b: { fetch: typeof fetch }): Promise<string> {
  const run = collect(askBot(bot, request, { fetch: b.fetch, env: {} }));
  await run.finished;
  expect(run.state.error).toBeInstanceOf(BotError);
  return (run.state.error as Error).message;
}

describe("the bot endpoint's client (issue 26)", () => {
  it("POSTs the message as JSON with the bot's headers, {{env.NAME}} filled in, and reads JSON messages", async () => {
    const b = json({
      messages: [
        { contentType: ContentType.TEXT_MARKDOWN, content: "**Hi**" },
        {
          contentType: ContentType.INTERACTIVE_MESSAGE,
          content: JSON.stringify({
            templateType: "QuickReply",
            version: "1.0",
            data: { content: { title: "Helpful?", elements: [{ title: "Yes" }] } },
          }),
        },
      ],
      handOver: true,
    });
    const withHeaders = { ...bot, headers: { authorization: "Bearer {{env.BOT_TOKEN}}" } };
    const run = collect(askBot(withHeaders, request, { fetch: b.fetch, env: { BOT_TOKEN: "s3" } }));
    await run.finished;
    expect(run.state.error).toBeUndefined();
    expect(run.got).toEqual([
      { kind: "message", contentType: ContentType.TEXT_MARKDOWN, content: "**Hi**" },
      expect.objectContaining({ kind: "message", contentType: ContentType.INTERACTIVE_MESSAGE }),
      { kind: "handOver" },
    ]);
    const [call] = b.calls;
    expect(call!.url).toBe(bot.url);
    expect(call!.init.method).toBe("POST");
    expect(JSON.parse(call!.init.body as string)).toEqual(request);
    expect(call!.init.headers).toMatchObject({
      authorization: "Bearer s3",
      "content-type": "application/json",
    });
  });

  it("reads a Server-Sent Events stream piece by piece, however its bytes are cut", async () => {
    const b = fakeBot();
    const run = collect(askBot(bot, request, { fetch: b.fetch }));
    b.write("data: Our shop \n\nda");
    b.write("ta: opens\n\n: a comment\nevent: ping\ndata: ignored\n\n");
    b.write("event: text\ndata: at nine.\ndata: Welcome!\n\nevent: handover\ndata:\n\n");
    b.end();
    await run.finished;
    expect(run.state.error).toBeUndefined();
    expect(run.got).toEqual([
      { kind: "piece", text: "Our shop " },
      { kind: "piece", text: "opens" },
      { kind: "piece", text: "at nine.\nWelcome!" },
      { kind: "handOver" },
    ]);
  });

  it("gives up on a bot silent for timeoutMs, before answering or between pieces, exactly", async () => {
    vi.useFakeTimers();
    const hanging = (_url: string | URL | Request, init: RequestInit = {}) =>
      new Promise<Response>((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    const silent = collect(askBot(bot, request, { fetch: hanging as typeof fetch }));
    await vi.advanceTimersByTimeAsync(999);
    expect(silent.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await silent.finished;
    expect((silent.state.error as Error).message).toBe("The bot was silent for 1000 ms.");

    const b = fakeBot();
    const run = collect(askBot(bot, request, { fetch: b.fetch }));
    await vi.advanceTimersByTimeAsync(900);
    b.write("data: one\n\n");
    await vi.advanceTimersByTimeAsync(999);
    expect(run.got).toEqual([{ kind: "piece", text: "one" }]);
    expect(run.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await run.finished;
    expect((run.state.error as Error).message).toBe("The bot was silent for 1000 ms.");
  });

  it("gives up on an answer still trickling in after maxAnswerMs, exactly", async () => {
    vi.useFakeTimers();
    const b = fakeBot();
    const run = collect(askBot(bot, request, { fetch: b.fetch }));
    // A piece every 999 ms: never silent for 1000 ms, but still going at 5000.
    for (let t = 0; t < 5; t++) {
      await vi.advanceTimersByTimeAsync(999);
      b.write(`data: ${t}\n\n`);
    }
    await vi.advanceTimersByTimeAsync(5000 - 5 * 999 - 1);
    expect(run.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await run.finished;
    expect((run.state.error as Error).message).toBe("The bot took longer than 5000 ms.");
    expect(run.got).toHaveLength(5);
  });

  it.each([
    ["not JSON", "{oops", "not valid JSON"],
    ["not an object", "[1]", "must be a JSON object"],
    ["messages not a list", { messages: "hi" }, "must be a list of at most 5"],
    [
      "too many messages",
      { messages: Array.from({ length: 6 }, () => ({ contentType: "text/plain", content: "x" })) },
      "must be a list of at most 5",
    ],
    [
      "an unknown type",
      { messages: [{ contentType: "text/html", content: "<b>" }] },
      "unknown contentType",
    ],
    [
      "empty content",
      { messages: [{ contentType: "text/plain", content: "  " }] },
      "has no content",
    ],
    [
      "a text over the limit",
      { messages: [{ contentType: "text/plain", content: "x".repeat(1025) }] },
      "longer than 1024 characters",
    ],
    [
      "a template without data",
      {
        messages: [
          { contentType: ContentType.INTERACTIVE_MESSAGE, content: '{"templateType":"X"}' },
        ],
      },
      "is not a template we show: template.templateType must be one of",
    ],
    ["handOver not a boolean", { messages: [], handOver: "yes" }, "handOver must be true or false"],
    ["nothing", { messages: [] }, "The bot said nothing."],
  ])("refuses a JSON answer with %s", async (_what, body, expected) => {
    expect(await failure(json(body))).toContain(expected);
  });

  it("refuses an HTTP error, another content type, an empty stream, an unreachable bot and oversized answers", async () => {
    const error = fakeBot("application/json", 503);
    error.end();
    expect(await failure(error)).toBe("The bot answered HTTP 503.");
    const html = fakeBot("text/html");
    html.end();
    expect(await failure(html)).toBe("The bot answered with text/html.");
    const empty = fakeBot();
    empty.write(": nothing but a comment\n\n");
    empty.end();
    expect(await failure(empty)).toBe("The bot said nothing.");
    const unreachable = () => Promise.reject(new TypeError("fetch failed"));
    expect(await failure({ fetch: unreachable as typeof fetch })).toBe(
      "The bot could not be reached: TypeError: fetch failed",
    );
    const big = fakeBot("application/json");
    big.write(" ".repeat(BOT_MAX_BODY_BYTES + 1));
    big.end();
    expect(await failure(big)).toContain(`over ${BOT_MAX_BODY_BYTES} bytes`);
    const flood = fakeBot();
    const run = collect(askBot(bot, request, { fetch: flood.fetch }));
    for (let i = 0; i <= BOT_MAX_STREAM_BYTES / 1024; i++)
      flood.write(`data: ${"x".repeat(1016)}\n\n`);
    await run.finished;
    expect((run.state.error as Error).message).toContain(
      `stream is over ${BOT_MAX_STREAM_BYTES} bytes`,
    );
  });
});
