/**
 * Issue 57, finding 7: pings never dropped, answered from a store probe asked at most once a
 * second; other frames within a per-socket budget. Timing with a hand-moved clock.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../test/support/manual-clock.js";
import { Refusals } from "../http/refusals.js";
import {
  FRAME_BURST,
  FRAMES_PER_SECOND,
  FrameGuard,
  STORE_PROBE_TTL_MS,
  StoreProbe,
} from "./frame-guard.js";

describe("the store probe of the deep heartbeat", () => {
  it("asks the store once for any number of pings, then not again until STORE_PROBE_TTL_MS after its answer", async () => {
    const clock = new ManualClock();
    let asked = 0;
    const probe = new StoreProbe(async () => void asked++, clock);
    const answers = await Promise.all(Array.from({ length: 500 }, () => probe.alive()));
    expect(answers.every((a) => a === true)).toBe(true);
    expect(asked).toBe(1);
    clock.advance(STORE_PROBE_TTL_MS - 1);
    await probe.alive();
    expect(asked).toBe(1);
    clock.advance(1);
    await probe.alive();
    expect(asked).toBe(2);
  });

  it("a store that fails is answered false, and asked again only after the TTL", async () => {
    const clock = new ManualClock();
    let asked = 0;
    let down = true;
    const probe = new StoreProbe(async () => {
      asked++;
      if (down) throw new Error("store down");
    }, clock);
    expect(await probe.alive()).toBe(false);
    down = false;
    expect(await probe.alive()).toBe(false);
    clock.advance(STORE_PROBE_TTL_MS);
    expect(await probe.alive()).toBe(true);
    expect(asked).toBe(2);
  });
});

describe("the frame budget of a socket", () => {
  it(`allows ${FRAME_BURST} frames at once, then ${FRAMES_PER_SECOND} a second; each refusal counted, other sockets untouched`, () => {
    const clock = new ManualClock();
    const refusals = new Refusals();
    const guard = new FrameGuard(async () => {}, clock, refusals);
    const count = () =>
      refusals.family().samples.find((s) => s.labels[0]![1] === "websocket_frame_throttled")!.value;
    for (let i = 0; i < FRAME_BURST; i++) expect(guard.allow("a")).toBe(true);
    expect(guard.allow("a")).toBe(false);
    expect(count()).toBe(1);
    expect(guard.allow("b")).toBe(true);
    clock.advance(1000 / FRAMES_PER_SECOND - 1);
    expect(guard.allow("a")).toBe(false);
    clock.advance(1);
    expect(guard.allow("a")).toBe(true);
    expect(guard.allow("a")).toBe(false);
    expect(count()).toBe(3);
  });
});
