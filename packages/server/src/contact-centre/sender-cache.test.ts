import { describe, expect, it } from "vitest";
import type { LockedSender } from "./participants-repo.js";
import { SenderCache } from "./sender-cache.js";
import type { Contact } from "./types.js";

const sender = (participantId: string, contactId: string, version: string): LockedSender => ({
  participant: {
    participantId,
    contactId,
    role: "CUSTOMER",
    displayName: participantId,
    connectedAt: null,
    leftAt: null,
  },
  contact: { contactId, status: "active", attributes: {} } as unknown as Contact,
  lastSeq: 1,
  lastItemAt: null,
  version,
});

describe("SenderCache", () => {
  it("answers a sender only with its contact as read, and joins senders read at the same version", () => {
    const cache = new SenderCache(10);
    expect(cache.get("p1")).toBeUndefined();
    cache.put([sender("p1", "c1", "100")]);
    cache.put([sender("p2", "c1", "100")]);
    expect(cache.get("p1")).toMatchObject({ version: "100", contact: { contactId: "c1" } });
    expect(cache.get("p2")).toMatchObject({ version: "100" });
    expect(cache.size).toBe(1);
  });

  it("a sender read at another version replaces its contact's entry and the senders kept with it", () => {
    const cache = new SenderCache(10);
    cache.put([sender("p1", "c1", "100"), sender("p2", "c1", "100")]);
    cache.put([sender("p2", "c1", "200")]);
    expect(cache.get("p1")).toBeUndefined();
    expect(cache.get("p2")).toMatchObject({ version: "200" });
  });

  it("moves an entry on to the version its write made, and forgets one the write did not start from", () => {
    const cache = new SenderCache(10);
    cache.put([sender("p1", "c1", "100")]);
    cache.advance("c1", "100", {
      lastSeq: 3,
      lastItemAt: "2026-11-29T09:00:00.000Z",
      version: "101",
    });
    expect(cache.get("p1")).toMatchObject({
      lastSeq: 3,
      lastItemAt: "2026-11-29T09:00:00.000Z",
      version: "101",
    });
    cache.advance("c1", "100", { lastSeq: 4, lastItemAt: null, version: "102" });
    expect(cache.get("p1")).toBeUndefined();
  });

  it("forgets a contact with its senders, and keeps at most its bound, the first cached dropped first", () => {
    const cache = new SenderCache(2);
    cache.put([sender("p1", "c1", "1"), sender("p2", "c2", "1")]);
    cache.forget("c1");
    expect(cache.get("p1")).toBeUndefined();
    cache.put([sender("p1", "c1", "1"), sender("p3", "c3", "1")]);
    expect(cache.size).toBe(2);
    expect(cache.get("p2")).toBeUndefined();
    expect(cache.get("p1")).toBeDefined();
    expect(cache.get("p3")).toBeDefined();
  });
});
