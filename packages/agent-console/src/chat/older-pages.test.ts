/**
 * A chat opened with a long history shows its newest page; the pages before it load as the
 * advisor scrolls up (issue 61), as history: nothing unread, no receipt sent.
 */
import { ContentType } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import { ChatsStore } from "../state/chats-store.js";
import { fakeApi, fakeManager, fakeSessions } from "../test-support/fake-sessions.js";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { ConsoleChats } from "./console-chats.js";

const history = (count: number) =>
  Array.from({ length: count }, (_, i) => customerMessage(`m${i + 1}`, `Question ${i + 1}`));

async function opened(count: number) {
  const store = new ChatsStore();
  const sessions = fakeSessions((s) => (s.transcript = history(count)));
  const chats = new ConsoleChats({
    api: fakeApi(),
    token: "advisor-token",
    store,
    sessions: sessions.factory,
    manager: fakeManager(),
    isVisible: () => true,
    progressFetch: () => ({ fetch: vi.fn(), listener: null }),
  });
  await chats.open(chatInfo("c1"));
  // Another chat in view: a live message of this one counts as unread.
  await chats.open(chatInfo("c2"));
  store.select("c2");
  const session = sessions.created[0]!;
  const ids = () => store.chat("c1")!.items.map((i) => i.Id);
  return { store, chats, session, ids };
}

describe("a long chat's older pages (issue 61)", () => {
  it("opens with the newest page; the page before the oldest loads once when asked, as history", async () => {
    const { store, chats, session, ids } = await opened(250);
    expect(ids()).toHaveLength(100);
    expect(ids()[0]).toBe("m151");
    expect(store.chat("c1")!.older).toBe(true);
    const receiptsBefore = session.sendMessageReceipt.mock.calls.length;
    chats.loadOlder("c1");
    chats.loadOlder("c1");
    // The transcript says it is loading until the page is in.
    expect(store.chat("c1")!.loadingOlder).toBe(true);
    await vi.waitFor(() => expect(ids()).toHaveLength(200));
    await vi.waitFor(() => expect(store.chat("c1")!.loadingOlder).toBe(false));
    expect(session.getTranscript).toHaveBeenCalledTimes(2);
    expect(session.getTranscript).toHaveBeenLastCalledWith({
      maxResults: 100,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
      nextToken: "page-1",
    });
    expect(ids()[0]).toBe("m51");
    expect(store.chat("c1")!.unread).toBe(0);
    expect(session.sendMessageReceipt.mock.calls.length).toBe(receiptsBefore);
    chats.loadOlder("c1");
    await vi.waitFor(() => expect(ids()).toHaveLength(250));
    expect(ids()[0]).toBe("m1");
    expect(store.chat("c1")!.older).toBe(false);
    chats.loadOlder("c1");
    expect(session.getTranscript).toHaveBeenCalledTimes(3);
  });

  it("a chat of one page has nothing older to load", async () => {
    const { store, session, chats } = await opened(40);
    expect(store.chat("c1")!.older).toBe(false);
    chats.loadOlder("c1");
    expect(session.getTranscript).toHaveBeenCalledTimes(1);
  });

  it("a page that fails to load is shown on the chat, and can be asked for again", async () => {
    const { store, chats, session, ids } = await opened(150);
    session.getTranscript.mockRejectedValueOnce(new Error("socket closed"));
    chats.loadOlder("c1");
    await vi.waitFor(() =>
      expect(store.chat("c1")!.error).toBe("Earlier messages could not be loaded: socket closed"),
    );
    await vi.waitFor(() => expect(store.chat("c1")!.loadingOlder).toBe(false));
    chats.loadOlder("c1");
    await vi.waitFor(() => expect(ids()).toHaveLength(150));
    expect(store.chat("c1")!.older).toBe(false);
  });

  it("a live message while older pages remain still counts as unread", async () => {
    const { store, session } = await opened(150);
    session.emit("message", {
      ...customerMessage("live", "Still there?"),
      ContentType: ContentType.TEXT_PLAIN,
    });
    expect(store.chat("c1")!.unread).toBe(1);
  });
});
