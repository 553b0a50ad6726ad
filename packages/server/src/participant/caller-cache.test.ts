import { afterEach, describe, expect, it, vi } from "vitest";
import type { Contact } from "../contact-centre/types.js";
import type { ParticipantRecord } from "../contact-centre/rows.js";
import type { Caller } from "./auth.js";
import { CALLER_TTL_MS, CallerCache, DROP_EXPIRED_EVERY_MS } from "./caller-cache.js";

const T0 = Date.parse("2026-11-27T12:00:00.000Z");
const HOUR = 3_600_000;

function caller(contactId: string, participantId: string, over: Partial<Caller> = {}): Caller {
  const contact: Contact = {
    contactId,
    initialContactId: contactId,
    instanceId: "i",
    contactFlowId: "f",
    status: "active",
    attributes: {},
    supportedContentTypes: ["text/plain"],
    createdAt: new Date(T0).toISOString(),
    endedAt: null,
  };
  const participant: ParticipantRecord = {
    participantId,
    contactId,
    role: "CUSTOMER",
    displayName: "Ann",
    connectedAt: null,
    leftAt: null,
    createdAt: new Date(T0).toISOString(),
    firstConnectionAt: null,
  };
  return { contact, participant, ...over };
}

describe("CallerCache", () => {
  it("hands back a cached caller until CALLER_TTL_MS passed, exactly", () => {
    const cache = new CallerCache();
    const ann = caller("c1", "p1");
    cache.set("connection", "h1", ann, T0 + HOUR, T0);
    expect(cache.get("connection", "h1", T0 + CALLER_TTL_MS - 1)).toBe(ann);
    expect(cache.get("connection", "h1", T0 + CALLER_TTL_MS)).toBeNull();
    // Dropped: no longer there when the clock is turned back either.
    expect(cache.get("connection", "h1", T0)).toBeNull();
  });

  it("never past its token's expiry", () => {
    const cache = new CallerCache();
    cache.set("connection", "h1", caller("c1", "p1"), T0 + 1_000, T0);
    expect(cache.get("connection", "h1", T0 + 999)).not.toBeNull();
    expect(cache.get("connection", "h1", T0 + 1_000)).toBeNull();
  });

  it("keeps no caller who left or whose chat ended", () => {
    const cache = new CallerCache();
    const left = caller("c1", "p1");
    cache.set(
      "connection",
      "h1",
      { ...left, participant: { ...left.participant, leftAt: "x" } },
      T0 + HOUR,
      T0,
    );
    const ended = caller("c2", "p2");
    cache.set(
      "connection",
      "h2",
      { ...ended, contact: { ...ended.contact, status: "ended" } },
      T0 + HOUR,
      T0,
    );
    expect(cache.get("connection", "h1", T0)).toBeNull();
    expect(cache.get("connection", "h2", T0)).toBeNull();
  });

  it("drops a participant's callers when the fan-out says it left, and a contact's when it ended", () => {
    const cache = new CallerCache();
    cache.set("connection", "customer", caller("c1", "p1"), T0 + HOUR, T0);
    cache.set("connection", "advisor", caller("c1", "p2"), T0 + HOUR, T0);
    cache.set("connection", "other", caller("c2", "p3"), T0 + HOUR, T0);
    cache.hear({ kind: "close", contactId: "c1", participantId: "p2", reason: "left" }, T0 + 1);
    expect(cache.get("connection", "advisor", T0 + 2)).toBeNull();
    expect(cache.get("connection", "customer", T0 + 2)).not.toBeNull();
    cache.hear({ kind: "close", contactId: "c1", reason: "chat ended" }, T0 + 3);
    expect(cache.get("connection", "customer", T0 + 4)).toBeNull();
    expect(cache.get("connection", "other", T0 + 4)).not.toBeNull();
    cache.hear({ kind: "item", contactId: "c2", item: { Id: "x" } as never }, T0 + 5);
    expect(cache.get("connection", "other", T0 + 6)).not.toBeNull();
  });

  it("refuses a caller read from the store just before the word came, for two TTLs", () => {
    const cache = new CallerCache();
    cache.hear({ kind: "close", contactId: "c1", reason: "chat ended" }, T0);
    // The read began before the chat ended and is cached after the word.
    cache.set("connection", "late", caller("c1", "p1"), T0 + HOUR, T0 + CALLER_TTL_MS - 1);
    expect(cache.get("connection", "late", T0 + 2 * CALLER_TTL_MS - 2)).toBeNull();
  });

  it("answers a token only for its own kind: a websocket URL's token is no connection token", () => {
    const cache = new CallerCache();
    const ann = caller("c1", "p1");
    cache.set("websocket", "h1", ann, T0 + HOUR, T0);
    expect(cache.get("connection", "h1", T0)).toBeNull();
    expect(cache.get("websocket", "h1", T0)).toBe(ann);
    cache.set("connection", "h2", ann, T0 + HOUR, T0);
    expect(cache.get("websocket", "h2", T0)).toBeNull();
    cache.hear({ kind: "close", contactId: "c1", reason: "chat ended" }, T0 + 1);
    expect(cache.get("websocket", "h1", T0 + 2)).toBeNull();
  });

  it("holds at most its bound, dropping the one set first, however recently it was used", () => {
    const cache = new CallerCache(2);
    cache.set("connection", "a", caller("c1", "p1"), T0 + HOUR, T0);
    cache.set("connection", "b", caller("c2", "p2"), T0 + HOUR, T0);
    expect(cache.get("connection", "a", T0)).not.toBeNull(); // a use does not renew it
    cache.set("connection", "c", caller("c3", "p3"), T0 + HOUR, T0);
    expect(cache.get("connection", "a", T0)).toBeNull();
    expect(cache.get("connection", "b", T0)).not.toBeNull();
    expect(cache.get("connection", "c", T0)).not.toBeNull();
    // Set again (read from the store after it was dropped), a caller is the newest.
    cache.set("connection", "a", caller("c1", "p1"), T0 + HOUR, T0);
    expect(cache.get("connection", "b", T0)).toBeNull();
  });

  it("drops the callers whose time is up when it keeps another, at most once a second", () => {
    const cache = new CallerCache();
    for (const n of [1, 2, 3])
      cache.set("connection", `old${n}`, caller(`c${n}`, `p${n}`), T0 + HOUR, T0);
    // Its token expires first: kept until then only.
    cache.set("connection", "short", caller("c4", "p4"), T0 + 10, T0);
    expect(cache.size).toBe(4);
    const late = T0 + CALLER_TTL_MS;
    cache.set("connection", "new", caller("c5", "p5"), T0 + HOUR, late);
    expect(cache.size).toBe(1);
    expect(cache.get("connection", "new", late)).not.toBeNull();
    // At most once a second: what falls due meanwhile waits for the next drop.
    const paced = new CallerCache();
    paced.set("connection", "a", caller("c1", "p1"), T0 + HOUR, T0);
    paced.set("connection", "b", caller("c2", "p2"), T0 + HOUR, T0 + 1);
    const due = T0 + CALLER_TTL_MS;
    paced.set("connection", "c", caller("c3", "p3"), T0 + HOUR, due);
    expect(paced.size).toBe(2); // a dropped; b is due 1 ms later
    paced.set("connection", "d", caller("c4", "p4"), T0 + HOUR, due + DROP_EXPIRED_EVERY_MS - 1);
    expect(paced.size).toBe(3);
    paced.set("connection", "e", caller("c5", "p5"), T0 + HOUR, due + DROP_EXPIRED_EVERY_MS);
    expect(paced.size).toBe(3); // b dropped
    expect(paced.get("connection", "c", due + DROP_EXPIRED_EVERY_MS)).not.toBeNull();
  });

  describe("on a quiet server", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("drops the callers and words that are due every CALLER_TTL_MS, with no request", async () => {
      vi.useFakeTimers();
      let now = T0;
      const cache = new CallerCache();
      for (const n of [1, 2, 3])
        cache.set("connection", `h${n}`, caller(`c${n}`, `p${n}`), T0 + HOUR, T0);
      cache.hear({ kind: "close", contactId: "c9", reason: "chat ended" }, T0);
      const stop = cache.startSweeping(() => now);
      now = T0 + CALLER_TTL_MS;
      await vi.advanceTimersByTimeAsync(CALLER_TTL_MS - 1);
      expect(cache.size).toBe(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(cache.size).toBe(0);
      // A chat's word is kept two TTLs (a store read just before it is still refused).
      expect(cache.words).toBe(1);
      now = T0 + 2 * CALLER_TTL_MS;
      await vi.advanceTimersByTimeAsync(CALLER_TTL_MS);
      expect(cache.words).toBe(0);
      await stop();
      // Stopped: what falls due afterwards waits for the next request.
      cache.set("connection", "h4", caller("c4", "p4"), T0 + HOUR, now);
      now += CALLER_TTL_MS;
      await vi.advanceTimersByTimeAsync(2 * CALLER_TTL_MS);
      expect(cache.size).toBe(1);
    });
  });
});
