import { AgentApiPath } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readEvents, subscribeAgentEvents, type EventHandlers } from "./events.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const encoder = new TextEncoder();

/** A body the test writes SSE text into, chunk by chunk, then ends (or fails). */
function body() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: () => controller.error(new Error("cut")),
  };
}

function handlers() {
  const seen: string[] = [];
  const h: EventHandlers = {
    queue: (d) => seen.push(`queue ${d.Contacts.length}`),
    queueChange: (d) => seen.push(`queue-change +${d.Added.length} -${d.Removed.length}`),
    chats: (d) => seen.push(`chats ${d.Chats.length}`),
    visitor: (d) => seen.push(`visitor ${d.ContactId}`),
    mention: (d) => seen.push(`mention ${d.From}`),
    trouble: (down) => seen.push(down ? "down" : "up"),
    signedOut: () => seen.push("signed out"),
  };
  return { h, seen };
}

describe("reading Server-Sent Events", () => {
  it("splits named events however the bytes arrive, joins data lines, skips comments", async () => {
    const b = body();
    const got: string[] = [];
    const done = readEvents(b.stream, (name, data) => got.push(`${name}=${data}`));
    b.write(': keep-alive\n\nevent: queue\ndata: {"Cont');
    b.write('acts":[]}\n\nevent: chats\r\ndata: a\r\ndata: b\r\n\r\n');
    b.write("data: x\n\n");
    b.end();
    await done;
    expect(got).toEqual(['queue={"Contacts":[]}', "chats=a\nb", "message=x"]);
  });
});

describe("the advisor's live updates", () => {
  it("send the token in the Authorization header, never in the URL, and are reopened on the backoff", async () => {
    const bodies = [body(), body()];
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => {
      const next = bodies.shift();
      if (!next) throw new TypeError("Failed to fetch");
      return new Response(next.stream, { status: 200 });
    });
    const first = bodies[0]!;
    const second = bodies[1]!;
    const { h, seen } = handlers();
    const stop = subscribeAgentEvents(AgentApiPath.Events, "tok-1", h, {
      fetch: fetch as unknown as typeof globalThis.fetch,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      random: () => 0.5,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.mock.calls[0]![0]).toBe("/agent-api/events");
    expect(fetch.mock.calls[0]![1]!.headers).toMatchObject({ authorization: "Bearer tok-1" });
    first.write('event: queue\ndata: {"Contacts":[{}]}\n\n');
    first.write('event: queue-change\ndata: {"Added":[],"Removed":["c1"]}\n\n');
    first.write('event: visitor\ndata: {"ContactId":"c2"}\n\n');
    first.write(
      'event: mention\ndata: {"ContactId":"c2","NoteId":"n","From":"Kim","Excerpt":"@sam"}\n\n',
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["up", "queue 1", "queue-change +0 -1", "visitor c2", "mention Kim"]);

    first.fail(); // the stream is cut
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)).toBe("down");
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    second.write('event: chats\ndata: {"Chats":[]}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.slice(-2)).toEqual(["up", "chats 0"]);

    second.end(); // the server ended it; the next open fails: 1 s (reset by the success), then 2 s
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(4);

    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it("a stream the server ends and then refuses (403: the advisor was revoked) says signed out and is not opened again", async () => {
    const first = body();
    const fetch = vi.fn(async () =>
      fetch.mock.calls.length === 1
        ? new Response(first.stream, { status: 200 })
        : new Response("{}", { status: 403 }),
    );
    const { h, seen } = handlers();
    subscribeAgentEvents(AgentApiPath.Events, "tok-1", h, {
      fetch: fetch as unknown as typeof globalThis.fetch,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      random: () => 0.5,
    });
    await vi.advanceTimersByTimeAsync(0);
    first.end();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(seen).toEqual(["up", "down", "signed out"]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
