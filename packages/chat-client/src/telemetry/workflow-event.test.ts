import { describe, expect, it } from "vitest";
import { NullOrUndefinedException } from "./errors.js";
import {
  WORKFLOW_DEDUPE_INTERVAL_MS,
  WorkflowEventDeduper,
  createWorkflowEvent,
} from "./workflow-event.js";

const at = (timestamp: number, data: Record<string, unknown> = { step: "1" }) =>
  createWorkflowEvent({
    workflowType: "Chat",
    instanceId: "i-1",
    event: "Opened",
    data,
    timestamp,
  });

describe("workflow events (docs/product.md §3)", () => {
  it("carry timestamp, workflowType, instanceId, userId, organizationId, accountId, event, appName and key/value data", () => {
    expect(
      createWorkflowEvent({
        workflowType: "Chat",
        instanceId: "i-1",
        userId: "u",
        organizationId: "o",
        accountId: "a",
        event: "Opened",
        appName: "chat-widget",
        data: { step: 1, empty: "", missing: null },
        timestamp: 1_700_000_000_000,
      }),
    ).toEqual({
      timestamp: 1_700_000_000_000,
      workflowType: "Chat",
      instanceId: "i-1",
      userId: "u",
      organizationId: "o",
      accountId: "a",
      event: "Opened",
      appName: "chat-widget",
      data: [
        { key: "step", value: "1" },
        { key: "empty", value: " " },
        { key: "missing", value: "null" },
      ],
    });
  });

  it("workflowType and event are required", () => {
    expect(() => createWorkflowEvent({ event: "x", timestamp: 0 } as never)).toThrow(
      new NullOrUndefinedException("workflowType"),
    );
    expect(() => createWorkflowEvent({ workflowType: "x", timestamp: 0 } as never)).toThrow(
      "event is null or undefined",
    );
  });

  it("workflow dedupe 200 ms: the same step with the same data within 200 ms is a duplicate", () => {
    expect(WORKFLOW_DEDUPE_INTERVAL_MS).toBe(200);
    const deduper = new WorkflowEventDeduper();
    deduper.remember(at(1_000));
    expect(deduper.isDuplicate(at(1_000))).toBe(true);
    expect(deduper.isDuplicate(at(1_200))).toBe(true);
    expect(deduper.isDuplicate(at(1_201))).toBe(false);
  });

  it("a repeat with different data, or of another step, is not a duplicate", () => {
    const deduper = new WorkflowEventDeduper();
    deduper.remember(at(1_000));
    expect(deduper.isDuplicate(at(1_050, { step: "2" }))).toBe(false);
    expect(deduper.isDuplicate({ ...at(1_050), event: "Closed" })).toBe(false);
    expect(deduper.isDuplicate({ ...at(1_050), instanceId: "i-2" })).toBe(false);
  });

  it("the dedupe interval can be set per call", () => {
    const deduper = new WorkflowEventDeduper();
    deduper.remember(at(1_000));
    expect(deduper.isDuplicate(at(1_500), 1_000)).toBe(true);
    expect(deduper.isDuplicate(at(1_500), 100)).toBe(false);
  });
});
