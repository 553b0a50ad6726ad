import type { Item } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ContactFeed,
  FEED_PAGE,
  FEED_RETRY_MS,
  REORDER_GRACE_MS,
  type SequencedItem,
} from "./contact-feed.js";

const item = (seq: number): Item => ({ Id: `i${seq}`, AbsoluteTime: "", Type: "MESSAGE" });

/** A store of `stored` items (seq 1..n) and a feed over it whose deliveries are recorded. */
function feedOver(stored: number, from: number) {
  const store: SequencedItem[] = [];
  const add = (n: number) => {
    for (let i = 0; i < n; i++) store.push({ seq: store.length + 1, item: item(store.length + 1) });
  };
  add(stored);
  const got: { id: string; repaired: boolean }[] = [];
  const reads: number[] = [];
  let failing = 0;
  const errors: unknown[] = [];
  const feed = new ContactFeed("c1", from, {
    reads: {
      itemsAfter: (_contactId, after, limit) => {
        reads.push(after);
        if (failing > 0) {
          failing--;
          return Promise.reject(new Error("store away"));
        }
        return Promise.resolve(store.filter((r) => r.seq > after).slice(0, limit));
      },
    },
    deliver: (i, repaired) => got.push({ id: i.Id, repaired }),
    onError: (e) => errors.push(e),
  });
  return {
    feed,
    got,
    reads,
    errors,
    add,
    ids: () => got.map((g) => g.id),
    failNext: (n: number) => (failing = n),
    /** The fan-out brings item `seq` (stored already). */
    live: (seq: number) => feed.receive(seq, item(seq)),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("ContactFeed", () => {
  it("passes items in turn at once, and drops one it has passed already (a replay)", () => {
    const f = feedOver(5, 3);
    f.live(4);
    f.live(5);
    f.live(4);
    f.live(2);
    expect(f.ids()).toEqual(["i4", "i5"]);
    expect(f.reads).toEqual([]);
  });

  it("holds an item ahead of its turn until the one before arrives, within the grace, unread", async () => {
    const f = feedOver(6, 3);
    f.live(5);
    f.live(6);
    expect(f.ids()).toEqual([]);
    await vi.advanceTimersByTimeAsync(REORDER_GRACE_MS - 1);
    f.live(4);
    expect(f.ids()).toEqual(["i4", "i5", "i6"]);
    await vi.advanceTimersByTimeAsync(REORDER_GRACE_MS * 5);
    expect(f.reads).toEqual([]);
  });

  it("reads a gap the fan-out does not fill from the store after exactly the grace, in order, once", async () => {
    const f = feedOver(6, 3);
    f.live(6);
    await vi.advanceTimersByTimeAsync(REORDER_GRACE_MS - 1);
    expect(f.reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.reads).toEqual([3]);
    expect(f.got).toEqual([
      { id: "i4", repaired: true },
      { id: "i5", repaired: true },
      { id: "i6", repaired: true },
    ]);
    // The lost ones arrive late after all: already passed.
    f.live(4);
    f.live(5);
    expect(f.ids()).toEqual(["i4", "i5", "i6"]);
  });

  it("after an interruption reads what came after the last item passed, a page at a time", async () => {
    const f = feedOver(2, 2);
    f.add(FEED_PAGE + 3);
    f.feed.resync();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.reads).toEqual([2, 2 + FEED_PAGE]);
    expect(f.ids()).toEqual(Array.from({ length: FEED_PAGE + 3 }, (_, i) => `i${i + 3}`));
  });

  it("items arriving during a repair wait for it and pass after it, each once, in order", async () => {
    const f = feedOver(4, 2);
    f.feed.resync();
    f.add(2);
    f.live(6);
    f.live(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(f.ids()).toEqual(["i3", "i4", "i5", "i6"]);
  });

  it("an interruption during a repair reads again after it", async () => {
    const f = feedOver(3, 2);
    f.feed.resync();
    f.feed.resync();
    f.add(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(f.reads).toEqual([2, 3]);
    expect(f.ids()).toEqual(["i3", "i4"]);
  });

  it("retries a failed read every FEED_RETRY_MS until the store answers, reporting each failure", async () => {
    const f = feedOver(4, 2);
    f.failNext(2);
    f.feed.resync();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.reads).toEqual([2]);
    await vi.advanceTimersByTimeAsync(FEED_RETRY_MS - 1);
    expect(f.reads).toEqual([2]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.reads).toEqual([2, 2]);
    await vi.advanceTimersByTimeAsync(FEED_RETRY_MS);
    expect(f.reads).toEqual([2, 2, 2]);
    expect(f.ids()).toEqual(["i3", "i4"]);
    expect(f.errors).toHaveLength(2);
  });

  it("a closed feed passes nothing and reads nothing more", async () => {
    const f = feedOver(4, 2);
    f.live(4);
    f.feed.close();
    await vi.advanceTimersByTimeAsync(REORDER_GRACE_MS * 2);
    f.live(3);
    f.feed.resync();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.ids()).toEqual([]);
    expect(f.reads).toEqual([]);
  });
});
