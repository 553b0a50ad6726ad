import { describe, expect, it } from "vitest";
import { agentMessage } from "../test-support/fakes.js";
import { ItemLedger } from "./ledger.js";

describe("each item handled once; history after a reload", () => {
  it("admits an item once, by its id", () => {
    const ledger = new ItemLedger();
    const m = agentMessage("hi");
    expect(ledger.admit(m)).toEqual({ live: true, advanced: true });
    expect(ledger.admit({ ...m })).toBeNull();
    ledger.markSeen("own-1");
    expect(ledger.admit(agentMessage("x", { Id: "own-1" }))).toBeNull();
  });

  it("in a persistent chat, a past chat's items (RelatedContactId) are history: no echo, no receipt", () => {
    const ledger = new ItemLedger();
    const past = agentMessage("yesterday", { RelatedContactId: "contact-0" });
    expect(ledger.admit(past)?.live).toBe(false);
    expect(ledger.admit(agentMessage("today"))?.live).toBe(true);
  });

  it("after a reload, items up to the watermark are history and newer ones live", () => {
    const older = agentMessage("older");
    const newer = agentMessage("newer");
    const ledger = new ItemLedger();
    ledger.resumeFrom(older.AbsoluteTime);
    expect(ledger.admit(older)?.live).toBe(false);
    expect(ledger.admit(newer)?.live).toBe(true);
    expect(ledger.handledUntil).toBe(newer.AbsoluteTime);
    expect(ledger.admit(agentMessage("no time", { Id: "", AbsoluteTime: "" }))?.live).toBe(true);
  });

  it("a chat stored without a watermark treats everything as history", () => {
    const ledger = new ItemLedger();
    ledger.resumeFrom(undefined);
    expect(ledger.admit(agentMessage("any"))?.live).toBe(false);
    ledger.clear();
    expect(ledger.admit(agentMessage("fresh"))?.live).toBe(true);
  });
});
