import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import { ChatSession } from "./chat-session.js";
import { createHarness, flush } from "../test-support/harness.js";

afterEach(() => {
  vi.useRealTimers();
  ChatSession.setGlobalConfig({
    features: { messageReceipts: { shouldSendMessageReceipts: true } },
  });
});

const READ = ContentType.READ_RECEIPT;
const DELIVERED = ContentType.DELIVERED_RECEIPT;

async function connected() {
  const h = createHarness();
  await h.session.connect();
  h.manager.gain();
  await flush();
  h.service.requests.length = 0;
  const sent = () =>
    h.service
      .calls("SendEvent")
      .map((r) => [r.body!.ContentType, JSON.parse(r.body!.Content as string).messageId]);
  return { ...h, sent };
}

describe("message receipts (docs/product.md §5, §9; docs/protocol.md §4.3)", () => {
  it("message receipts are on by default with a 5000 ms throttle: a read receipt reaches the server 5000 ms after the call", async () => {
    const h = await connected();
    const result = h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(4999);
    expect(h.sent()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent()).toEqual([[READ, "m1"]]);
    await expect(result).resolves.toMatchObject({ data: { Id: expect.any(String) } });
  });

  it("read receipts are sent at once into the throttle window (no 300 ms prioritisation wait)", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m0" });
    await vi.advanceTimersByTimeAsync(100);
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    // The read cancelled the 300 ms wait and opened the window at 100 ms.
    await vi.advanceTimersByTimeAsync(4999);
    expect(h.sent()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent()).toEqual([[READ, "m1"]]);
  });

  it("delivered receipts wait 300 ms so that a read receipt can supersede them, then the throttle window", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(300 + 4999);
    expect(h.sent()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent()).toEqual([[DELIVERED, "m1"]]);
  });

  it("a delivered receipt superseded by a read for the same message within 300 ms is never sent", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(200);
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.sent()).toEqual([[READ, "m1"]]);
  });

  it("the 300 ms wait is one shared timer: only the latest receipt handed in during it is processed", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(100);
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m2" });
    await vi.advanceTimersByTimeAsync(199);
    await vi.advanceTimersByTimeAsync(1 + 5000);
    expect(h.sent()).toEqual([[DELIVERED, "m2"]]);
  });

  it("when the window closes only the most recent read is sent, and all pending read promises resolve with it", async () => {
    const h = await connected();
    const first = h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    const second = h.session.sendMessageReceipt({ contentType: READ, messageId: "m2" });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.sent()).toEqual([[READ, "m2"]]);
    expect(await first).toEqual(await second);
  });

  it("a delivered receipt closing the window is sent together with the latest pending read", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m2" });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.sent()).toEqual([
      [DELIVERED, "m2"],
      [READ, "m1"],
    ]);
  });

  it('a receipt already fired for the same messageId is not sent again ("Event already fired")', async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    await expect(
      h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
    await expect(
      h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
    await vi.advanceTimersByTimeAsync(5000);
    await expect(
      h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
    expect(h.sent()).toEqual([[READ, "m1"]]);
  });

  it("a delivered receipt after a delivered one for the same message is already fired; a read still goes out", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" });
    await expect(
      h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.sent()).toEqual([[READ, "m1"]]);
  });

  it('receipts without a messageId are rejected ("Ignoring messageReceipt: missing messageId")', async () => {
    const h = await connected();
    await expect(
      h.session.sendMessageReceipt({ contentType: READ, messageId: "" }),
    ).rejects.toThrow("Ignoring messageReceipt: missing messageId");
    await expect(h.session.sendEvent({ contentType: READ, content: "{}" })).rejects.toThrow(
      "Ignoring messageReceipt: missing messageId",
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.sent()).toEqual([]);
  });

  it("sendEvent with a receipt content type goes through the same receipt rules", async () => {
    const h = await connected();
    void h.session.sendEvent({ contentType: READ, content: JSON.stringify({ messageId: "m7" }) });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.sent()).toEqual([[READ, "m7"]]);
  });

  it("disableThrottle skips the throttle window", async () => {
    const h = await connected();
    void h.session.sendMessageReceipt({
      contentType: READ,
      messageId: "m1",
      disableThrottle: true,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.service.calls("SendEvent")[0]!.body!.Content).toBe(
      '{"messageId":"m1","disableThrottle":true}',
    );
  });

  it("the throttle time comes from setGlobalConfig's features.messageReceipts.throttleTime", async () => {
    const h = await connected();
    ChatSession.setGlobalConfig({ features: { messageReceipts: { throttleTime: 1000 } } });
    void h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.sent()).toEqual([[READ, "m1"]]);
    ChatSession.setGlobalConfig({});
  });

  it("with receipts disabled, receipt sends are rejected without a request", async () => {
    const h = await connected();
    ChatSession.setGlobalConfig({
      features: { messageReceipts: { shouldSendMessageReceipts: false } },
    });
    await expect(
      h.session.sendMessageReceipt({ contentType: READ, messageId: "m1" }),
    ).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.sent()).toEqual([]);
  });

  it('failed receipt sends reject with "Failed to send messageReceipt"', async () => {
    const h = await connected();
    h.service.on("SendEvent", () => ({
      status: 409,
      body: { __type: "ConflictException", message: "barge" },
    }));
    const result = h.session
      .sendMessageReceipt({ contentType: READ, messageId: "m1" })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await result).toMatchObject({
      message: "Failed to send messageReceipt",
      type: "ConflictException",
      statusCode: 409,
    });
  });

  it("receipts recorded in a fetched transcript are not sent again", async () => {
    const h = await connected();
    h.service.transcript = [
      h.item({
        Id: "meta-1",
        Type: "MESSAGEMETADATA",
        MessageMetadata: {
          MessageId: "m1",
          Receipts: [{ ReadTimestamp: "t", RecipientParticipantId: "customer-1" }],
        },
      }),
    ];
    await h.session.getTranscript();
    await expect(
      h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
  });
});

describe("receipts seeded by the gap repair", () => {
  it("receipts recorded in the transcript read after a reconnect are not sent again", async () => {
    const h = await connected();
    h.manager.lose();
    h.service.transcript = [
      h.item({
        Id: "m1",
        MessageMetadata: {
          MessageId: "m1",
          Receipts: [{ DeliveredTimestamp: "t", RecipientParticipantId: "customer-1" }],
        },
      }),
    ];
    h.manager.reconnect();
    await flush();
    await expect(
      h.session.sendMessageReceipt({ contentType: DELIVERED, messageId: "m1" }),
    ).resolves.toEqual({ message: "Event already fired" });
  });
});

describe("incoming receipts (docs/protocol.md §4.1)", () => {
  it("metadata items become read or delivered receipt events from Receipts[0]; own receipts are not shown", async () => {
    const h = await connected();
    const read = vi.fn();
    const delivered = vi.fn();
    h.session.onReadReceipt(read);
    h.session.onDeliveredReceipt(delivered);
    const meta = (id: string, receipt: object) =>
      h.item({
        Id: id,
        Type: "MESSAGEMETADATA",
        ContentType: ContentType.MESSAGE_METADATA,
        Content: undefined,
        MessageMetadata: { MessageId: "m1", Receipts: [receipt] },
      });
    h.manager.item(
      meta("r1", {
        ReadTimestamp: "t",
        DeliveredTimestamp: "t",
        RecipientParticipantId: "agent-1",
      }),
    );
    h.manager.item(meta("r2", { DeliveredTimestamp: "t", RecipientParticipantId: "agent-1" }));
    h.manager.item(meta("r3", { ReadTimestamp: "t", RecipientParticipantId: "customer-1" }));
    expect(read.mock.calls.map((c) => c[0].data.Id)).toEqual(["r1"]);
    expect(delivered.mock.calls.map((c) => c[0].data.Id)).toEqual(["r2"]);
  });
});
