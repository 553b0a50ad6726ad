/**
 * Issue 57, finding 8: a websocket whose client stops reading is closed, by the ping rule every
 * WEBSOCKET_STALL_MS (with fake timers, exactly) or at once past MAX_BUFFERED_BYTES unsent.
 */
import { EventEmitter } from "node:events";
import type { WebSocket } from "ws";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Refusals } from "../http/refusals.js";
import { MAX_BUFFERED_BYTES, SocketWrites } from "./socket-writes.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A socket as `ws` shows it: pinged, answering (or not), its unsent bytes as the test sets. */
function socket(answers: boolean) {
  const s = Object.assign(new EventEmitter(), {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    pings: 0,
    terminated: false,
    sent: [] as string[],
    ping() {
      s.pings++;
      if (answers) queueMicrotask(() => s.emit("pong"));
    },
    send(text: string) {
      s.sent.push(text);
    },
    terminate() {
      s.terminated = true;
      s.readyState = 3;
      s.emit("close");
    },
  });
  return s;
}
const asWs = (s: ReturnType<typeof socket>) => s as unknown as WebSocket;
const stalledCount = (r: Refusals) =>
  r.family().samples.find((s) => s.labels[0]![1] === "websocket_stalled")!.value;

describe("sockets that stop reading", () => {
  it("each is pinged every WEBSOCKET_STALL_MS; one that did not answer by the next ping is closed, one that answers never", async () => {
    const refusals = new Refusals();
    const writes = new SocketWrites(refusals);
    const reading = socket(true);
    const paused = socket(false);
    writes.track(asWs(reading));
    writes.track(asWs(paused));
    const stop = writes.start(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect([reading.pings, paused.pings]).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect([reading.pings, paused.pings]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(999);
    expect(paused.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(paused.terminated).toBe(true);
    expect(stalledCount(refusals)).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reading.terminated).toBe(false);
    expect(reading.pings).toBe(12);
    expect(writes.size).toBe(1);
    await stop();
  });

  it(`a send that leaves more than ${MAX_BUFFERED_BYTES} bytes unsent closes the socket at once`, () => {
    const refusals = new Refusals();
    const writes = new SocketWrites(refusals);
    const s = socket(true);
    writes.track(asWs(s));
    s.bufferedAmount = MAX_BUFFERED_BYTES;
    writes.send(asWs(s), "a frame");
    expect(s.terminated).toBe(false);
    s.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    writes.send(asWs(s), "another");
    expect(s.terminated).toBe(true);
    writes.send(asWs(s), "after");
    expect(s.sent).toEqual(["a frame", "another"]);
    expect(stalledCount(refusals)).toBe(1);
  });
});
