import type { Item } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { MessageStream } from "./message-stream.js";
import type { ContactCentre, PostInput, StreamChunk } from "./types.js";

/** A contact centre whose chunks are held until the test lets each go. */
function slowCentre() {
  const calls: string[] = [];
  const pending: (() => void)[] = [];
  const centre = {
    postChunk: (_c: string, _p: string, chunk: StreamChunk) => {
      calls.push(`chunk ${chunk.chunkNumber} ${chunk.content}`);
      return new Promise<Item>((resolve) => pending.push(() => resolve({} as Item)));
    },
    postMessage: (_c: string, _p: string, input: PostInput) => {
      calls.push(`message ${input.content ?? ""} ${input.completes ?? ""}`);
      return Promise.resolve({ Id: input.completes } as Item);
    },
  } as unknown as ContactCentre;
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Let the oldest chunk held go out, and what follows it run. */
  const release = async () => {
    await settle();
    pending.shift()?.();
    await settle();
  };
  return { centre, calls, release };
}

describe("a streamed message", () => {
  it("sends its pieces in order and completes after the last, even when the caller does not wait", async () => {
    const { centre, calls, release } = slowCentre();
    const stream = new MessageStream(centre, "c1", "bot", { contentType: "text/plain" });
    const sent = [stream.append("One, "), stream.append("two, "), stream.append("three.")];
    const completed = stream.complete();
    await release();
    expect(calls).toEqual(["chunk 1 One, ", "chunk 2 two, "]);
    await release();
    await release();
    await Promise.all(sent);
    expect((await completed).Id).toBe(stream.id);
    expect(calls).toEqual([
      "chunk 1 One, ",
      "chunk 2 two, ",
      "chunk 3 three.",
      `message One, two, three. ${stream.id}`,
    ]);
  });
});
