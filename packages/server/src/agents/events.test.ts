/** The agent console's live updates: frames in the order of the changes, whatever each read takes. */
import type { ServerResponse } from "node:http";
import { EventEmitter } from "node:events";
import type { QueueChange, QueuedContact } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { createMemoryFanOut } from "../fanout/memory.js";
import { AGENT_CHANNEL } from "./channel.js";
import { AgentEventsHub, MAX_SSE_BACKLOG_BYTES } from "./events.js";

type Recorded = ServerResponse & { frames: () => string[]; writableLength: number };

/** A response that records what is written to it (its client reading all at once). */
function response(): Recorded {
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writeHead: () => res,
    write: (chunk: string) => written.push(chunk),
    end: () => undefined,
    destroy: () => void (res.destroyed = true),
    destroyed: false,
    writableLength: 0,
    frames: () => written.filter((w) => w.startsWith("event:")),
  });
  return res as unknown as Recorded;
}

/** The queue at `version`: one waiting contact, `c<version>`, plus one that never moves. */
const queueAt = (version: number): QueuedContact[] => [
  {
    ContactId: "c-steady",
    Queue: "advisors",
    QueuedAt: "2026-01-01T00:00:00.000Z",
    CustomerName: "Ann",
  },
  {
    ContactId: `c${version}`,
    Queue: "advisors",
    QueuedAt: "2026-01-01T00:01:00.000Z",
    CustomerName: "Bo",
  },
];

/** Reads of the queue that finish when the test says, each answering what the queue was when it began. */
function slowQueue() {
  let version = 0;
  const pending: (() => void)[] = [];
  return {
    change: () => (version += 1),
    read: () => {
      const seen = version;
      return new Promise<QueuedContact[]>((resolve) => pending.push(() => resolve(queueAt(seen))));
    },
    /** Finish the read begun n-th (0-based) among those still open. */
    finish: (n: number) => pending.splice(n, 1)[0]!(),
    get open() {
      return pending.length;
    },
  };
}

/** The queue a console holds after these frames: the snapshot, then each change applied. */
function applied(frames: string[]): string[] {
  let ids: string[] = [];
  for (const f of frames) {
    const [head, data] = f.split("\ndata: ");
    const body = JSON.parse(data!);
    if (head === "event: queue") ids = body.Contacts.map((c: QueuedContact) => c.ContactId);
    if (head === "event: queue-change") {
      const change = body as QueueChange;
      ids = ids.filter((id) => !change.Removed.includes(id));
      for (const c of change.Added) if (!ids.includes(c.ContactId)) ids.push(c.ContactId);
    }
  }
  return ids.sort();
}

/** A started hub whose queue reads finish when the test says; errors are collected. */
async function startedHub() {
  const resumed = new Set<() => void>();
  // The in-process fan-out, interrupted when the test says (`resume`).
  const fanout = {
    ...createMemoryFanOut(),
    onResume: (listener: () => void) => (resumed.add(listener), () => resumed.delete(listener)),
    resume: () => resumed.forEach((listener) => listener()),
  };
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

/** Finish every open queue read, oldest first, letting each frame go out. */
async function finishAll(queue: ReturnType<typeof slowQueue>) {
  while (queue.open > 0) {
    queue.finish(0);
    await settle();
  }
  await settle();
}

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
    await finishAll(queue);
    expect(applied(res.frames())).toEqual(["c-steady", "c2"]);
    expect(errors).toEqual([]);
    await hub.stop();
  });

  it("queue changes arriving while a queue frame waits its turn are sent as one frame, of what changed only", async () => {
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
    await finishAll(queue);
    await added;
    const bo = queueAt(3)[1];
    expect(res.frames()).toEqual([
      `event: queue\ndata: ${JSON.stringify({ Contacts: queueAt(0) })}\n\n`,
      `event: chats\ndata: {"Chats":[]}\n\n`,
      `event: queue-change\ndata: ${JSON.stringify({ Added: [bo], Removed: ["c0"] })}\n\n`,
    ]);
    expect(errors).toEqual([]);
    await hub.stop();
  });

  it("a console joining later gets the whole queue; those before it, what changed meanwhile; none sees a change before its snapshot", async () => {
    const { fanout, queue, errors, hub } = await startedHub();
    const first = response();
    const one = hub.add("sam", first);
    await settle();
    queue.finish(0);
    await one;
    queue.change();
    const second = response();
    const two = hub.add("kim", second);
    await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    await settle();
    await finishAll(queue);
    await two;
    expect(applied(first.frames())).toEqual(["c-steady", "c1"]);
    expect(applied(second.frames())).toEqual(["c-steady", "c1"]);
    expect(second.frames()[0]).toMatch(/^event: queue\n/);
    expect(errors).toEqual([]);
    await hub.stop();
  });

  it(`a console more than ${MAX_SSE_BACKLOG_BYTES} bytes behind is cut; the others go on`, async () => {
    const { fanout, queue, errors, hub } = await startedHub();
    const slow = response();
    const fast = response();
    for (const res of [slow, fast]) {
      const added = hub.add("sam", res);
      await settle();
      queue.finish(0);
      await added;
    }
    slow.writableLength = MAX_SSE_BACKLOG_BYTES + 1;
    queue.change();
    await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    await settle();
    await finishAll(queue);
    expect(slow.destroyed).toBe(true);
    expect(hub.size).toBe(1);
    queue.change();
    await fanout.publish(AGENT_CHANNEL, { kind: "queue" });
    await settle();
    await finishAll(queue);
    expect(applied(fast.frames())).toEqual(["c-steady", "c2"]);
    expect(errors).toEqual([]);
    await hub.stop();
  });

  it("after the fan-out was interrupted, the queue and each advisor's chats are read and sent again", async () => {
    const { fanout, queue, errors, hub } = await startedHub();
    const res = response();
    const added = hub.add("sam", res);
    await settle();
    queue.finish(0);
    await added;
    const before = res.frames().length;
    // The queue changed, and its word was lost with the fan-out.
    queue.change();
    fanout.resume();
    await settle();
    await finishAll(queue);
    const after = res.frames().slice(before);
    expect(after.map((f) => f.split("\n")[0])).toEqual(["event: queue-change", "event: chats"]);
    expect(applied(res.frames())).toEqual(["c-steady", "c1"]);
    expect(errors).toEqual([]);
    await hub.stop();
  });
});
