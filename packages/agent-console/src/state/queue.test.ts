import type { QueuedContact } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { applyQueueChange } from "./queue.js";

const entry = (id: string, at: string, name = id): QueuedContact => ({
  ContactId: id,
  Queue: "advisors",
  QueuedAt: `2026-01-01T00:0${at}:00.000Z`,
  CustomerName: name,
});

describe("the queue kept from its changes (issue 57)", () => {
  it("adds new entries in their place, oldest first, replaces changed ones and drops those that left", () => {
    const queue = [entry("a", "1"), entry("c", "3")];
    const next = applyQueueChange(queue, {
      Added: [entry("b", "2"), entry("c", "3", "Cy"), entry("d", "1")],
      Removed: ["a"],
    });
    expect(next.map((c) => [c.ContactId, c.CustomerName])).toEqual([
      ["d", "d"],
      ["b", "b"],
      ["c", "Cy"],
    ]);
    expect(queue.map((c) => c.ContactId)).toEqual(["a", "c"]);
  });
});
