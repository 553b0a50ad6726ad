import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType, ItemType } from "@chat-widget/protocol";
import { createHarness, flush } from "../test-support/harness.js";
import type { TranscriptUpdate } from "./transcript.js";

afterEach(() => vi.useRealTimers());

const at = (s: number) => new Date(Date.parse("2025-01-01T10:00:00.000Z") + s * 1000).toISOString();

/** A connected customer session whose onTranscriptUpdated records every update. */
async function tracked() {
  const h = createHarness();
  const updates: TranscriptUpdate[] = [];
  h.session.onTranscriptUpdated((e) => updates.push(e.data));
  await h.session.connect();
  await vi.waitFor(() => expect(h.service.calls("GetTranscript").length).toBeGreaterThan(0));
  await flush();
  const last = () => updates.at(-1)!;
  const rows = () =>
    last().transcript.map((i) => `${i.Id}:${i.Content ?? ""}:${i.MessageMetadata?.Status ?? ""}`);
  return { ...h, updates, last, rows };
}

describe("onTranscriptUpdated", () => {
  it("reads the latest 100 items on connecting and hands them out with where older history continues", async () => {
    const h = createHarness();
    h.service.on("GetTranscript", () => ({
      body: {
        Transcript: [
          h.item({ Id: "a", Content: "first", AbsoluteTime: at(1) }),
          h.item({ Id: "b", Content: "second", AbsoluteTime: at(2) }),
        ],
        NextToken: "older",
      },
    }));
    const updates: TranscriptUpdate[] = [];
    h.session.onTranscriptUpdated((e) => updates.push(e.data));
    await h.session.connect();
    await vi.waitFor(() => expect(updates.length).toBeGreaterThan(0));
    const read = h.service.calls("GetTranscript")[0]!.body as Record<string, unknown>;
    expect(read).toMatchObject({ MaxResults: 100, ScanDirection: "BACKWARD" });
    const update = updates.at(-1)!;
    expect(update.transcript.map((i) => i.Id)).toEqual(["a", "b"]);
    expect(update.previousTranscriptNextToken).toBe("older");
    expect(JSON.parse(update.transcript[0]!.serializedContent!)).toMatchObject({ Id: "a" });
  });

  it("is off until something subscribes: connecting reads nothing", async () => {
    const h = createHarness();
    await h.session.connect();
    await flush();
    expect(h.service.calls("GetTranscript")).toHaveLength(0);
  });

  it("shows a sent message at once as SENDING, then SENT under its stored Id, and its echo once", async () => {
    const h = await tracked();
    let answer!: () => void;
    h.service.on(
      "SendMessage",
      () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: { Id: "stored", AbsoluteTime: at(5) } });
        }),
    );
    const sending = h.session.sendMessage({ message: "hi", contentType: "text/plain" });
    expect(h.rows()).toEqual(["uuid-1:hi:SENDING"]);
    await vi.waitFor(() => expect(answer).toBeDefined());
    answer();
    await sending;
    expect(h.rows()).toEqual(["stored:hi:SENT"]);
    h.manager.item(h.item({ Id: "stored", Content: "hi", AbsoluteTime: at(5) }));
    expect(h.rows()).toEqual(["stored:hi:SENT"]);
    expect(h.last().transcript[0]!.AbsoluteTime).toBe(at(5));
  });

  it("shows an agent session's own message as the agent's", async () => {
    const h = createHarness({ type: "AGENT" });
    const updates: TranscriptUpdate[] = [];
    h.session.onTranscriptUpdated((e) => updates.push(e.data));
    await h.session.connect();
    await flush();
    h.service.on("SendMessage", () => new Promise(() => {}));
    void h.session.sendMessage({ message: "Hello, I'm Sam", contentType: "text/plain" });
    await vi.waitFor(() => expect(updates.at(-1)?.transcript).toHaveLength(1));
    expect(updates.at(-1)!.transcript[0]).toMatchObject({
      ParticipantRole: "AGENT",
      MessageMetadata: { Status: "SENDING" },
    });
  });

  it("keeps the echo as SENT, without the temporary item, when it arrived before the send's answer", async () => {
    const h = await tracked();
    h.service.on("SendMessage", () => {
      h.manager.item(h.item({ Id: "stored", Content: "hi", AbsoluteTime: at(5) }));
      return { body: { Id: "stored", AbsoluteTime: at(5) } };
    });
    await h.session.sendMessage({ message: "hi", contentType: "text/plain", clientToken: "t1" });
    expect(h.rows()).toEqual(["stored:hi:SENT"]);
  });

  it("puts a sent message in its stored place when an answer to it arrived before the send's answer", async () => {
    const h = await tracked();
    h.service.on("SendMessage", () => {
      h.manager.item(h.item({ Id: "reply", Content: "hello!", AbsoluteTime: at(6) }));
      return { body: { Id: "stored", AbsoluteTime: at(5) } };
    });
    const sending = h.session.sendMessage({ message: "hi", contentType: "text/plain" });
    await vi.waitFor(() => expect(h.rows()).toEqual(["reply:hello!:", "uuid-1:hi:SENDING"]));
    await sending;
    expect(h.rows()).toEqual(["stored:hi:SENT", "reply:hello!:"]);
  });

  it("marks a send that failed for good as FAILED, with the time it failed", async () => {
    const h = await tracked();
    h.service.on("SendMessage", () => ({ status: 403, body: { __type: "AccessDeniedException" } }));
    await expect(
      h.session.sendMessage({ message: "lost?", contentType: "text/plain", clientToken: "t1" }),
    ).rejects.toBeTruthy();
    expect(h.rows()).toEqual(["t1:lost?:FAILED"]);
    expect(h.last().transcript[0]!.AbsoluteTime).toBe(new Date(Date.now()).toISOString());
  });

  it("keeps items in time order, once per Id, without typing", async () => {
    const h = await tracked();
    h.manager.item(h.item({ Id: "b", Content: "two", AbsoluteTime: at(2) }));
    h.manager.item(h.item({ Id: "typing", ContentType: ContentType.TYPING, AbsoluteTime: at(3) }));
    h.manager.item(h.item({ Id: "b", Content: "two", AbsoluteTime: at(2) }));
    h.service.on("GetTranscript", () => ({
      body: {
        Transcript: [
          h.item({ Id: "a0", Content: "zero", AbsoluteTime: at(0) }),
          h.item({ Id: "a1", Content: "one", AbsoluteTime: at(1) }),
        ],
      },
    }));
    await h.session.getTranscript({ scanDirection: "BACKWARD", nextToken: "older" });
    expect(h.rows()).toEqual(["a0:zero:", "a1:one:", "b:two:"]);
    expect(h.last().previousTranscriptNextToken).toBeNull();
  });

  it("grows a streamed answer in place and completes it once", async () => {
    const h = await tracked();
    const chunk = (n: number, text: string, completed = false) =>
      h.item({
        Id: "s1",
        Content: text,
        AbsoluteTime: at(n),
        ParticipantRole: "SYSTEM",
        MessageMetadata: { MessageId: "s1", ChunkNumber: n, MessageCompleted: completed },
      });
    h.manager.item(chunk(1, "Our "));
    expect(h.rows()).toEqual(["s1:Our :"]);
    h.manager.item(chunk(2, "shop"));
    expect(h.rows()).toEqual(["s1:Our shop:"]);
    h.manager.item(chunk(3, "Our shop opens at 9.", true));
    expect(h.rows()).toEqual(["s1:Our shop opens at 9.:"]);
  });

  it("turns the other side's receipts into the message's status, never back from read, and ignores its own", async () => {
    const h = await tracked();
    h.service.on("SendMessage", () => ({ body: { Id: "m1", AbsoluteTime: at(5) } }));
    await h.session.sendMessage({ message: "hi", contentType: "text/plain" });
    const receipt = (id: string, kind: "ReadTimestamp" | "DeliveredTimestamp", by: string) =>
      h.item({
        Id: id,
        Type: ItemType.MESSAGE_METADATA,
        ContentType: undefined,
        Content: undefined,
        MessageMetadata: {
          MessageId: "m1",
          Receipts: [{ [kind]: at(6), RecipientParticipantId: by }],
        },
      });
    h.manager.item(receipt("r0", "ReadTimestamp", "customer-1"));
    expect(h.rows()).toEqual(["m1:hi:SENT"]);
    h.manager.item(receipt("r1", "DeliveredTimestamp", "agent-1"));
    expect(h.rows()).toEqual(["m1:hi:DELIVERED"]);
    h.manager.item(receipt("r2", "ReadTimestamp", "agent-1"));
    expect(h.rows()).toEqual(["m1:hi:READ"]);
    const count = h.updates.length;
    h.manager.item(receipt("r3", "DeliveredTimestamp", "agent-1"));
    expect(h.rows()).toEqual(["m1:hi:READ"]);
    expect(h.updates.length).toBe(count);
  });

  it("hands out a copy: a subscriber that keeps an update does not see it change", async () => {
    const h = await tracked();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    const kept = h.last().transcript;
    h.manager.item(h.item({ Id: "b", AbsoluteTime: at(2) }));
    expect(kept.map((i) => i.Id)).toEqual(["a"]);
    expect(h.last().transcript.map((i) => i.Id)).toEqual(["a", "b"]);
  });

  it("reads the latest items again on every reconnection", async () => {
    const h = await tracked();
    const reads = h.service.calls("GetTranscript").length;
    h.manager.lose();
    h.manager.reconnect();
    await vi.waitFor(() =>
      expect(
        h.service
          .calls("GetTranscript")
          .slice(reads)
          .some((c) => (c.body as { MaxResults?: number }).MaxResults === 100),
      ).toBe(true),
    );
  });
});
