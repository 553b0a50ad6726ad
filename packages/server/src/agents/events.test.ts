/** The agent console's live updates: frames in the order of the changes, whatever each read takes. */
import type { ServerResponse } from "node:http";
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createMemoryFanOut } from "../fanout/memory.js";
import { AGENT_CHANNEL } from "./channel.js";
import { AgentEventsHub } from "./events.js";

/** A response that records what is written to it. */
function response(): ServerResponse & { frames: () => string[] } {
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writeHead: () => res,
    write: (chunk: string) => written.push(chunk),
    end: () => undefined,
    frames: () => written.filter((w) => w.startsWith("event:")),
  });
  return res as unknown as ServerResponse & { frames: () => string[] };
}

/** Reads of the queue that finish when the test says, each answering what the queue was when it began. */
function slowQueue() {
  let version = 0;
  const pending: (() => void)[] = [];
  return {
    change: () => (version += 1),
    read: () => {
      const seen = version;
      return new Promise<unknown>((resolve) => pending.push(() => resolve({ version: seen })));
    },
    /** Finish the read begun n-th (0-based) among those still open. */
    finish: (n: number) => pending.splice(n, 1)[0]!(),
    get open() {
      return pending.length;
    },
  };
}

/** A started hub whose queue reads finish when the test says; errors are collected. */
async function startedHub() {
  const fanout = createMemoryFanOut();
  const queue = slowQueue();
  const errors: unknown[] = [];
  const hub = new AgentEventsHub({
    fanout,
    queue: queue.read,
    chats: async () => ({ Chats: [] }),
    onError: (e) => errors.push(e),
    setInterval: (() => 0) as unknown as typeof setInterval,
    clearInterval: () => {},
  });
  await hub.start();
  return { fanout, queue, errors, hub };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the agent events hub", () => {
  it("a slow queue read finishing after a newer one never leaves a console on the older queue", async () => {
    const { fanout, queue, errors, hub } = await startedHub();
    const res = response();
    const added = hub.add("sam", res);
    await settle();
    queue.finish(0);
    await added;

    queue.change();
    await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    await settle();
    queue.change();
    await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    await settle();
    // The newer read finishes first, if it has begun at all.
    if (queue.open === 2) queue.finish(1);
    while (queue.open > 0) {
      queue.finish(0);
      await settle();
    }
    await settle();
    const last = res
      .frames()
      .filter((f) => f.startsWith("event: queue"))
      .at(-1);
    expect(last).toBe(`event: queue\ndata: {"version":2}\n\n`);
    expect(errors).toEqual([]);
    await hub.stop();
  });

  it("queue changes arriving while a queue frame waits its turn are sent as one frame", async () => {
    const { fanout, queue, errors, hub } = await startedHub();
    const res = response();
    const added = hub.add("sam", res);
    await settle();
    // While the console's first frames are still being read, three changes arrive.
    for (let i = 0; i < 3; i += 1) {
      queue.change();
      await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    }
    await settle();
    while (queue.open > 0) {
      queue.finish(0);
      await settle();
    }
    await added;
    await settle();
    expect(res.frames()).toEqual([
      `event: queue\ndata: {"version":0}\n\n`,
      `event: chats\ndata: {"Chats":[]}\n\n`,
      `event: queue\ndata: {"version":3}\n\n`,
    ]);
    expect(errors).toEqual([]);
    await hub.stop();
  });
});
