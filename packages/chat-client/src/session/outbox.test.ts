import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import { createHarness, flush } from "../test-support/harness.js";
import type { Reply } from "../test-support/fake-participant-service.js";

afterEach(() => vi.useRealTimers());

async function connected() {
  const h = createHarness();
  await h.session.connect();
  h.manager.reconnect();
  await flush();
  h.service.requests.length = 0;
  const sends = () =>
    h.service.calls("SendMessage").map((r) => ({
      content: r.body!.Content as string,
      token: r.body!.ClientToken as string,
      at: Date.now(),
    }));
  const send = (message: string) =>
    h.session.sendMessage({ message, contentType: ContentType.TEXT_PLAIN, metadata: message });
  return { ...h, sends, send };
}

const noAnswer = (): Reply => {
  throw new TypeError("Failed to fetch");
};
const stored = (id: string): Reply => ({
  body: { Id: id, AbsoluteTime: "2025-01-01T10:00:00.000Z" },
});

/** Let the clock run `ms` with promise callbacks in between. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await flush();
}

describe("the outbox (issue 9, sending)", () => {
  it("a stored message tells the websocket manager that the service answers; a send with no answer does not (issue 23)", async () => {
    const h = await connected();
    const answers = [noAnswer, () => stored("m1")];
    h.service.on("SendMessage", () => answers.shift()!());
    void h.send("hello");
    await flush();
    expect(h.manager.answered).toBe(0);
    await advance(1_000);
    expect(h.sends()).toHaveLength(2);
    expect(h.manager.answered).toBe(1);
  });

  it("a message that gets no answer is sent again after 1 s, then 2 s, with the same ClientToken, and resolves once stored", async () => {
    const h = await connected();
    const answers = [noAnswer, noAnswer, () => stored("m1")];
    h.service.on("SendMessage", () => answers.shift()!());
    let result: unknown;
    void h.send("hello").then((r) => (result = r));
    await flush();
    expect(h.sends()).toHaveLength(1);
    await advance(999);
    expect(h.sends()).toHaveLength(1);
    await advance(1);
    expect(h.sends()).toHaveLength(2);
    await advance(1_999);
    expect(h.sends()).toHaveLength(2);
    expect(result).toBeUndefined();
    await advance(1);
    const tokens = h.sends().map((s) => s.token);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(1);
    expect(result).toMatchObject({ data: { Id: "m1" }, metadata: "hello" });
  });

  it("5xx and 429 answers are retried with the same ClientToken until stored", async () => {
    const h = await connected();
    const answers: (() => Reply)[] = [
      () => ({ status: 503, body: { __type: "ServiceUnavailableException" } }),
      () => ({ status: 429, body: { __type: "ThrottlingException" } }),
    ];
    h.service.on("SendMessage", () => (answers.shift() ?? (() => stored("m1")))());
    const sent = h.send("hello");
    await advance(5_000);
    await expect(sent).resolves.toMatchObject({ data: { Id: "m1" } });
    expect(new Set(h.sends().map((s) => s.token)).size).toBe(1);
    expect(h.sends()).toHaveLength(3);
  });

  it("messages go out one at a time in the order they were written, a later one waiting behind a retried one", async () => {
    const h = await connected();
    let fail = true;
    let ids = 0;
    h.service.on("SendMessage", () => (fail ? noAnswer() : stored(`id-${++ids}`)));
    const results: string[] = [];
    const all = ["one", "two", "three"].map((text) =>
      h.send(text).then((r) => results.push(`${text}:${r.data.Id}`)),
    );
    await flush();
    expect(h.sends().map((s) => s.content)).toEqual(["one"]);
    fail = false;
    await advance(1_000);
    await Promise.all(all);
    expect(h.sends().map((s) => s.content)).toEqual(["one", "one", "two", "three"]);
    expect(results).toEqual(["one:id-1", "two:id-2", "three:id-3"]);
  });

  it("a final error (400) fails that message alone, with its metadata; the next one goes out", async () => {
    const h = await connected();
    h.service.on("SendMessage", (r) =>
      r.body!.Content === "too long"
        ? { status: 400, body: { __type: "ValidationException", message: "Content too long" } }
        : stored("ok"),
    );
    const refused = h.send("too long");
    const next = h.send("fine");
    await expect(refused).rejects.toMatchObject({
      type: "ValidationException",
      statusCode: 400,
      metadata: "too long",
    });
    await expect(next).resolves.toMatchObject({ data: { Id: "ok" } });
    expect(h.sends().map((s) => s.content)).toEqual(["too long", "fine"]);
  });

  it("the connection coming back sends a waiting message at once", async () => {
    const h = await connected();
    let fail = true;
    h.service.on("SendMessage", () => (fail ? noAnswer() : stored("m1")));
    const sent = h.send("hello");
    await advance(1_000 + 2_000 + 4_000); // attempts at 0, 1, 3, 7 s; the next at 15 s
    expect(h.sends()).toHaveLength(4);
    fail = false;
    h.manager.lose();
    await advance(500);
    h.manager.reconnect();
    await flush();
    await expect(sent).resolves.toMatchObject({ data: { Id: "m1" } });
    expect(h.sends().at(-1)!.at).toBe(Date.now());
  });

  it("a ClientToken the caller gives is the one sent", async () => {
    const h = await connected();
    await h.session.sendMessage({
      message: "after reload",
      contentType: ContentType.TEXT_PLAIN,
      clientToken: "kept-token",
    });
    expect(h.sends().map((s) => s.token)).toEqual(["kept-token"]);
  });

  it('when the chat ends, messages still waiting fail with "Failed to call sendMessage, No active connection" and nothing more is sent', async () => {
    const h = await connected();
    h.service.on("SendMessage", noAnswer);
    const waiting = h.send("one");
    const behind = h.send("two");
    await flush();
    h.manager.item(
      h.item({ Id: "end", Type: "EVENT", ContentType: ContentType.CHAT_ENDED, Content: undefined }),
    );
    await expect(waiting).rejects.toMatchObject({
      message: "Failed to call sendMessage, No active connection",
      metadata: "one",
    });
    await expect(behind).rejects.toMatchObject({ metadata: "two" });
    const count = h.sends().length;
    await advance(120_000);
    expect(h.sends()).toHaveLength(count);
  });
});
