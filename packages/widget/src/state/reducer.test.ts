import { ContentType } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { agentMessage, botMessage, customerMessage, event } from "../test-support/fakes.js";
import { initialState, reducer } from "./reducer.js";
import type { Action, WidgetState } from "./reducer.js";

const run = (actions: Action[], state: WidgetState = initialState) =>
  actions.reduce(reducer, state);
const open = run([{ type: "clickWithNoChat" }, { type: "connectionEstablished", visible: true }]);
const flags = (s: WidgetState) => ({
  visible: s.visible,
  active: s.active,
  loading: s.loading,
  error: s.error,
  botActive: s.botActive,
  botLoading: s.botLoading,
});

describe("the widget flags (docs/product.md §4) as one reducer", () => {
  it("click with no chat: loading on; connection established: loading off, window visible, chat active", () => {
    expect(flags(run([{ type: "clickWithNoChat" }]))).toMatchObject({
      loading: true,
      visible: false,
      active: false,
    });
    expect(flags(open)).toMatchObject({ loading: false, visible: true, active: true });
  });

  it("any failure: visible, active and loading off; error on", () => {
    const s = run([{ type: "failed" }], open);
    expect(flags(s)).toMatchObject({ visible: false, active: false, loading: false, error: true });
    expect(run([{ type: "errorElapsed" }], s).error).toBe(false);
  });

  it("minimise: window hides, chat stays active; reopen shows it again", () => {
    const s = run([{ type: "minimise" }], open);
    expect(flags(s)).toMatchObject({ visible: false, active: true });
    expect(run([{ type: "reopen" }], s).visible).toBe(true);
    expect(run([{ type: "reopen" }]).visible).toBe(false);
  });

  it("close: loading on, hide, inactive; then the transcript is cleared and loading off", () => {
    const withEntry = run([{ type: "itemReceived", item: agentMessage("hi"), live: true }], open);
    const closing = run([{ type: "closeStarted" }], withEntry);
    expect(flags(closing)).toMatchObject({ loading: true, visible: false, active: false });
    expect(closing.entries).toHaveLength(1);
    const closed = run([{ type: "closed" }], closing);
    expect(closed).toEqual(initialState);
  });

  it("the BOT echo and the input sentinel: bot loading and bot active, echo content remembered", () => {
    const s = run([{ type: "itemReceived", item: botMessage("menu"), live: true }], open);
    expect(flags(s)).toMatchObject({ botLoading: true, botActive: true });
    expect(s.pendingEchoes).toEqual(["menu"]);
    const stopped = run([{ type: "itemReceived", item: botMessage("input"), live: true }], s);
    expect(stopped.botLoading).toBe(false);
    expect(stopped.pendingEchoes).toEqual(["menu"]);
    const echoed = run(
      [{ type: "itemReceived", item: customerMessage("menu"), live: true }],
      stopped,
    );
    expect(echoed.entries).toEqual([]);
    expect(echoed.pendingEchoes).toEqual([]);
  });

  it("incoming chat-ended event from a non-customer: chat becomes inactive", () => {
    const s = run(
      [{ type: "itemReceived", item: event(ContentType.CHAT_ENDED), live: true }],
      open,
    );
    expect(s.active).toBe(false);
  });

  const queued = (content: string, token: string) =>
    ({
      type: "messageQueued",
      entry: {
        kind: "text",
        id: `local:${token}`,
        absoluteTime: "2025-01-01T10:00:00.000Z",
        content,
        contentType: ContentType.TEXT_PLAIN,
        participantRole: "customer",
        displayName: "Customer",
        delivery: "sending",
        clientToken: token,
      },
    }) as const;

  it("each message once: an own message shown at once as sending becomes its stored copy, whichever comes first — the stream's copy or the send's answer", () => {
    const m = customerMessage("Hi", { Id: "sent-1" });
    const answerFirst = run(
      [
        queued("Hi", "t1"),
        { type: "messageStored", localId: "local:t1", id: "sent-1", absoluteTime: m.AbsoluteTime },
        { type: "itemReceived", item: m, live: true },
        { type: "itemReceived", item: m, live: false },
      ],
      open,
    );
    expect(answerFirst.entries).toEqual([
      expect.objectContaining({ id: "sent-1", content: "Hi", clientToken: "t1" }),
    ]);
    expect(answerFirst.entries[0]).not.toHaveProperty("delivery");
    const streamFirst = run(
      [
        queued("Hi", "t1"),
        { type: "itemReceived", item: m, live: true },
        { type: "messageStored", localId: "local:t1", id: "sent-1", absoluteTime: m.AbsoluteTime },
      ],
      open,
    );
    expect(streamFirst.entries.map((e) => [e.id, e.kind === "text" && e.delivery])).toEqual([
      ["sent-1", undefined],
    ]);
  });

  it("a message refused for good shows as not sent; Retry sends it again as sending", () => {
    const failed = run([queued("Hi", "t1"), { type: "messageFailed", localId: "local:t1" }], open);
    expect(failed.entries[0]).toMatchObject({ id: "local:t1", delivery: "failed" });
    const retried = reducer(failed, { type: "messageRetried", localId: "local:t1" });
    expect(retried.entries[0]).toMatchObject({ delivery: "sending" });
  });
});

describe("unread messages while the window is hidden (issue 24)", () => {
  const live = (item: ReturnType<typeof agentMessage>): Action => ({
    type: "itemReceived",
    item,
    live: true,
  });
  const hidden = run([{ type: "minimise" }], open);

  it("counts the advisor's and the bot's live messages while hidden, once each", () => {
    const first = agentMessage("Hello");
    const s = run([live(first), live(first), live(agentMessage("Still there?"))], hidden);
    expect(s.unread).toBe(2);
  });

  it("does not count the visitor's own messages, events, history, or anything while visible", () => {
    const s = run(
      [
        live(customerMessage("Hi")),
        live(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" })),
        { type: "itemReceived", item: agentMessage("From before"), live: false },
      ],
      hidden,
    );
    expect(s.unread).toBe(0);
    expect(run([live(agentMessage("Seen"))], open).unread).toBe(0);
  });

  it("reopening clears the count; a resume that shows the window does too", () => {
    const s = run([live(agentMessage("Hello"))], hidden);
    expect(s.unread).toBe(1);
    expect(run([{ type: "reopen" }], s).unread).toBe(0);
    expect(run([{ type: "connectionEstablished", visible: true }], s).unread).toBe(0);
    expect(run([{ type: "connectionEstablished", visible: false }], s).unread).toBe(1);
  });
});

describe("the visitor's message: sent, delivered, read (issue 24)", () => {
  const receipt = (messageId: string, kind: "read" | "delivered"): Action => {
    const at = "2026-11-25T10:00:01.000Z";
    return {
      type: "receiptReceived",
      item: {
        Id: `r-${messageId}-${kind}`,
        Type: "MESSAGEMETADATA",
        AbsoluteTime: at,
        MessageMetadata: {
          MessageId: messageId,
          Receipts: [
            kind === "read"
              ? { ReadTimestamp: at, RecipientParticipantId: "a" }
              : { DeliveredTimestamp: at, RecipientParticipantId: "a" },
          ],
        },
      },
    };
  };
  const mine = customerMessage("Where is my parcel?");
  const withMine = run([{ type: "itemReceived", item: mine, live: true }], open);
  const receiptOf = (s: WidgetState) => {
    const entry = s.entries.find((e) => e.id === mine.Id);
    return entry?.kind === "text" ? entry.receipt : "missing";
  };

  it("delivered, then read; a late delivered receipt does not take read back", () => {
    expect(receiptOf(withMine)).toBeUndefined();
    const delivered = run([receipt(mine.Id, "delivered")], withMine);
    expect(receiptOf(delivered)).toBe("delivered");
    const read = run([receipt(mine.Id, "read"), receipt(mine.Id, "delivered")], delivered);
    expect(receiptOf(read)).toBe("read");
  });

  it("a receipt for a message the widget does not show changes nothing", () => {
    expect(run([receipt("someone-else", "read")], withMine)).toBe(withMine);
  });
});
