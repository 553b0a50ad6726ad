import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatWidget } from "./ChatWidget.js";
import {
  CHAT,
  agentMessage,
  botMessage,
  customerMessage,
  event,
  makeDeps,
} from "./test-support/fakes.js";
import type { FakeConnection } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const receipts = (connection: FakeConnection, contentType: string) =>
  connection.events
    .filter((e) => e.contentType === contentType)
    .map((e) => (JSON.parse(e.content ?? "{}") as { messageId?: string }).messageId);
const read = (c: FakeConnection) => receipts(c, ContentType.READ_RECEIPT);
const delivered = (c: FakeConnection) => receipts(c, ContentType.DELIVERED_RECEIPT);

describe("read receipts: an advisor's message is read when the visitor can see it", () => {
  it("a message arriving while the window is visible is marked read at once, after its delivered receipt", async () => {
    const w = renderWidget();
    await w.open();
    const hello = agentMessage("Hello");
    await w.receive(hello);
    expect(w.adapter.last.events).toEqual([
      {
        contentType: ContentType.DELIVERED_RECEIPT,
        content: JSON.stringify({ messageId: hello.Id }),
      },
      { contentType: ContentType.READ_RECEIPT, content: JSON.stringify({ messageId: hello.Id }) },
    ]);
  });

  it("the read receipt waits until the delivered receipt has gone out, so every MESSAGE keeps its delivered receipt", async () => {
    const w = renderWidget();
    await w.open();
    const connection = w.adapter.last;
    let deliveredSent: () => void = () => {};
    const original = connection.sendEvent.bind(connection);
    connection.sendEvent = async (contentType: string, content?: string) => {
      await original(contentType, content);
      if (contentType === ContentType.DELIVERED_RECEIPT)
        await new Promise<void>((resolve) => (deliveredSent = resolve));
    };
    const hello = agentMessage("Hello");
    await w.receive(hello);
    await advance(1000);
    expect(delivered(connection)).toEqual([hello.Id]);
    expect(read(connection)).toEqual([]);
    deliveredSent();
    await flush();
    expect(read(connection)).toEqual([hello.Id]);
  });

  it("a message arriving while minimised is delivered but not read until the window is reopened", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    const first = agentMessage("First");
    const second = botMessage("Second");
    await w.receive(first);
    await w.receive(second);
    await advance(60_000);
    expect(delivered(w.adapter.last)).toEqual([first.Id, second.Id]);
    expect(read(w.adapter.last)).toEqual([]);
    fireEvent.click(w.launcher());
    await flush();
    expect(read(w.adapter.last)).toEqual([first.Id, second.Id]);
  });

  it("each message is marked read once, however often the window is reopened or the message redelivered", async () => {
    const w = renderWidget();
    await w.open();
    const hello = agentMessage("Hello");
    await w.receive(hello);
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    fireEvent.click(w.launcher());
    await w.receive(hello);
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    fireEvent.click(w.launcher());
    await flush();
    expect(read(w.adapter.last)).toEqual([hello.Id]);
    expect(delivered(w.adapter.last)).toEqual([hello.Id]);
  });

  it("no read receipt for the visitor's own messages nor for events", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(customerMessage("mine"));
    await w.receive(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" }));
    expect(read(w.adapter.last)).toEqual([]);
  });

  it("a chat resumed minimised after a reload marks new messages read only when reopened", async () => {
    const h = makeDeps();
    const earlier = agentMessage("Earlier");
    const news = agentMessage("While you were away");
    h.storage.value = { chat: CHAT, visible: false, handledUntil: earlier.AbsoluteTime };
    render(<ChatWidget deps={h.deps} />);
    await flush();
    act(() => h.adapter.last.handlers.onMessage(news));
    await flush();
    expect(delivered(h.adapter.last)).toEqual([news.Id]);
    expect(read(h.adapter.last)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: /^Open chat/ }));
    await flush();
    expect(read(h.adapter.last)).toEqual([news.Id]);
  });

  it("messages left unread when the chat is closed are not marked read in the next chat", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    await w.receive(agentMessage("Unseen"));
    fireEvent.click(w.launcher());
    w.end();
    await flush();
    await w.open();
    expect(w.adapter.connections).toHaveLength(2);
    expect(read(w.adapter.last)).toEqual([]);
  });
});
