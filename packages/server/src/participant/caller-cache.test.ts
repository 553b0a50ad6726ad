import { describe, expect, it } from "vitest";
import type { Contact } from "../contact-centre/types.js";
import type { ParticipantRecord } from "../contact-centre/rows.js";
import type { Caller } from "./auth.js";
import { CALLER_TTL_MS, CallerCache } from "./caller-cache.js";

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

  it("holds at most its bound, dropping the least recently used", () => {
    const cache = new CallerCache(2);
    cache.set("connection", "a", caller("c1", "p1"), T0 + HOUR, T0);
    cache.set("connection", "b", caller("c2", "p2"), T0 + HOUR, T0);
    expect(cache.get("connection", "a", T0)).not.toBeNull(); // a is now the newer
    cache.set("connection", "c", caller("c3", "p3"), T0 + HOUR, T0);
    expect(cache.get("connection", "b", T0)).toBeNull();
    expect(cache.get("connection", "a", T0)).not.toBeNull();
    expect(cache.get("connection", "c", T0)).not.toBeNull();
  });
});
