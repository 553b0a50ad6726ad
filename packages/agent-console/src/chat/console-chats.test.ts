import { ContentType } from "@chat-widget/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { ChatsStore } from "../state/chats-store.js";
import {
  fakeApi,
  fakeManager,
  fakeSessions,
  type FakeSession,
} from "../test-support/fake-sessions.js";
import { advisorMessage, chatInfo, customerMessage, receiptItem } from "../test-support/items.js";
import { ConsoleChats, TYPING_INDICATOR_MS } from "./console-chats.js";

/** A Storage of its own for each test (session storage is shared by the whole run). */
function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (k) => values.get(k) ?? null,
    key: (i) => [...values.keys()][i] ?? null,
    removeItem: (k) => void values.delete(k),
    setItem: (k, v) => void values.set(k, v),
  };
}

function setup(
  visible = true,
  prepare?: (session: FakeSession) => void,
  storage: Storage = memoryStorage(),
) {
  const api = fakeApi();
  const store = new ChatsStore();
  const sessions = fakeSessions(prepare);
  const manager = fakeManager();
  const chats = new ConsoleChats({
    api,
    token: "advisor-token",
    store,
    sessions: sessions.factory,
    manager,
    isVisible: () => visible,
    progressFetch: () => ({ fetch: vi.fn(), listener: null }),
    storage,
  });
  return { api, store, sessions, manager, chats, storage };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("AGENT sessions on the advisor's one websocket", () => {
  it("every chat's AGENT session gets the same websocket manager, started once with the agent API's transport", async () => {
    const { api, sessions, manager, chats } = setup();
    await chats.open(chatInfo("c1"));
    await chats.open(chatInfo("c2"));
    expect(sessions.created).toHaveLength(2);
    expect(sessions.created.map((s) => s.args.websocketManager)).toEqual([manager, manager]);
    expect(sessions.created.map((s) => s.args.type)).toEqual(["AGENT", "AGENT"]);
    expect(manager.init).toHaveBeenCalledTimes(1);
    expect(api.websocketTransport).toHaveBeenCalledWith("advisor-token");
  });

  it("getConnectionToken asks the agent API for the chat's connection token", async () => {
    const { api, sessions, chats } = setup();
    await chats.open(chatInfo("c7"));
    const details = sessions.created[0]!.args.chatDetails;
    expect(details).toMatchObject({
      contactId: "c7",
      initialContactId: "c7",
      participantId: "agent-p1",
    });
    await details.getConnectionToken!();
    expect(api.connectionToken).toHaveBeenCalledWith("advisor-token", "c7");
  });

  it("connects, then fills the transcript from getTranscript, each item once", async () => {
    const { sessions, store, chats } = setup();
    const opening = chats.open(chatInfo("c1"));
    const hello = customerMessage("h", "Hello");
    sessions.created[0]!.transcript = [hello];
    sessions.created[0]!.emit("message", hello);
    await opening;
    expect(sessions.created[0]!.connect).toHaveBeenCalledTimes(1);
    expect(store.chat("c1")?.items.map((i) => i.Id)).toEqual(["h"]);
    expect(store.chat("c1")?.connection).toBe("connected");
  });

  it("a failed connect is shown on the chat", async () => {
    const { store, chats } = setup(true, (s) =>
      s.connect.mockRejectedValueOnce({
        _debug: { reason: "Failed to fetch connectionDetails with createParticipantConnection" },
      }),
    );
    await chats.open(chatInfo("c1"));
    expect(store.chat("c1")?.error).toBe(
      "Could not connect to the chat: Failed to fetch connectionDetails with createParticipantConnection",
    );
  });

  it("a chat that failed to connect is tried again by the next sync, and the failure clears", async () => {
    let attempts = 0;
    const { store, sessions, chats } = setup(true, (s) => {
      if (attempts++ === 0) s.connect.mockRejectedValueOnce(new Error("socket closed"));
    });
    await chats.open(chatInfo("c1"));
    expect(store.chat("c1")?.error).toContain("Could not connect to the chat");
    chats.sync([chatInfo("c1")]);
    await vi.waitFor(() => expect(store.chat("c1")?.connection).toBe("connected"));
    expect(sessions.created).toHaveLength(2);
    expect(store.chat("c1")?.error).toBeNull();
    chats.sync([chatInfo("c1")]);
    expect(sessions.created).toHaveLength(2);
  });

  it("an 11th chat is not opened and the advisor is told why", async () => {
    const { store, sessions, chats } = setup();
    for (let i = 0; i < 10; i++) await chats.open(chatInfo(`c${i}`));
    await chats.open(chatInfo("c10"));
    expect(sessions.created).toHaveLength(10);
    expect(store.getSnapshot().error).toBe(
      "You already have 10 chats open: close an ended chat first.",
    );
  });
});

describe("receipts", () => {
  it("a delivered receipt is sent for every incoming customer message; read receipts for the chat in view", async () => {
    const { sessions, chats } = setup();
    await chats.open(chatInfo("c1"));
    await chats.open(chatInfo("c2"));
    const [inView, other] = sessions.created;
    inView!.emit("message", customerMessage("m1", "hi", "c1"));
    other!.emit("message", customerMessage("m2", "hello", "c2"));
    expect(inView!.sendMessageReceipt.mock.calls.map((c) => c[0])).toEqual([
      { contentType: ContentType.DELIVERED_RECEIPT, messageId: "m1" },
      { contentType: ContentType.READ_RECEIPT, messageId: "m1" },
    ]);
    expect(other!.sendMessageReceipt.mock.calls.map((c) => c[0])).toEqual([
      { contentType: ContentType.DELIVERED_RECEIPT, messageId: "m2" },
    ]);
    chats.select("c2");
    expect(other!.sendMessageReceipt).toHaveBeenLastCalledWith({
      contentType: ContentType.READ_RECEIPT,
      messageId: "m2",
    });
  });

  it("no read receipt while the page is hidden", async () => {
    const { sessions, chats } = setup(false);
    await chats.open(chatInfo("c1"));
    sessions.created[0]!.emit("message", customerMessage("m1", "hi"));
    expect(sessions.created[0]!.sendMessageReceipt.mock.calls.map((c) => c[0].contentType)).toEqual(
      [ContentType.DELIVERED_RECEIPT],
    );
  });

  it("the customer's receipts mark the advisor's message delivered, then read", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    const s = sessions.created[0]!;
    s.emit("message", advisorMessage("own", "Hi"));
    s.emit("deliveredReceipt", receiptItem("own", "delivered"));
    expect(store.chat("c1")?.receipts).toEqual({ own: "delivered" });
    s.emit("readReceipt", receiptItem("own", "read"));
    expect(store.chat("c1")?.receipts).toEqual({ own: "read" });
  });
});

describe("a reopened or reloaded chat keeps what the server stored", () => {
  it("receipts stored in the transcript mark the advisor's messages delivered or read, read winning", async () => {
    const { store, chats } = setup(true, (s) => {
      s.transcript = [
        advisorMessage("a", "First"),
        advisorMessage("b", "Second"),
        advisorMessage("c", "Third"),
        receiptItem("a", "read"),
        receiptItem("a", "delivered"),
        receiptItem("b", "delivered"),
        receiptItem("c", "read", "agent-p1"),
      ];
    });
    await chats.open(chatInfo("c1"));
    expect(store.chat("c1")?.receipts).toEqual({ a: "read", b: "delivered" });
  });

  it("history loaded on open is not unread for a chat not in view; live messages are", async () => {
    const { sessions, store, chats } = setup(true, (s) => {
      s.transcript = [customerMessage(`old-${s.args.chatDetails.contactId}`, "Earlier")];
    });
    await chats.open(chatInfo("c1"));
    await chats.open(chatInfo("c2"));
    expect(store.chat("c2")?.items.map((i) => i.Id)).toEqual(["old-c2"]);
    expect(store.chat("c2")?.unread).toBe(0);
    sessions.created[1]!.emit("message", customerMessage("new", "Still there?", "c2"));
    expect(store.chat("c2")?.unread).toBe(1);
  });
});

describe("typing", () => {
  it("the customer's typing shows for 3 s after their last typing event, to the millisecond", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    const s = sessions.created[0]!;
    s.emit("typing", { ...customerMessage("t", ""), ContentType: ContentType.TYPING });
    expect(store.chat("c1")?.customerTyping).toBe(true);
    await vi.advanceTimersByTimeAsync(TYPING_INDICATOR_MS - 1);
    expect(store.chat("c1")?.customerTyping).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.chat("c1")?.customerTyping).toBe(false);
  });

  it("the advisor's own typing echo does not show the indicator", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    sessions.created[0]!.emit("typing", {
      ...advisorMessage("t", ""),
      ContentType: ContentType.TYPING,
    });
    expect(store.chat("c1")?.customerTyping).toBe(false);
  });

  it("the advisor's typing is sent as a typing event", async () => {
    const { sessions, chats } = setup();
    await chats.open(chatInfo("c1"));
    chats.typing("c1");
    expect(sessions.created[0]!.sendEvent).toHaveBeenCalledWith({
      contentType: ContentType.TYPING,
    });
  });
});

describe("sending and ending", () => {
  it("sends the trimmed text as markdown with a ClientToken; an empty text is not sent", async () => {
    const { sessions, chats } = setup();
    await chats.open(chatInfo("c1"));
    expect(await chats.send("c1", "   ")).toBe(false);
    expect(await chats.send("c1", "  **Hi**  ")).toBe(true);
    expect(sessions.created[0]!.sendMessage.mock.calls).toEqual([
      [
        {
          message: "**Hi**",
          contentType: ContentType.TEXT_MARKDOWN,
          clientToken: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      ],
    ]);
  });

  it("a message shows as sending at once, then as one transcript item when stored (the stream's copy too)", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    let store1!: () => void;
    sessions.created[0]!.sendMessage.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          store1 = () =>
            resolve({
              data: { Id: "m1", AbsoluteTime: "2026-11-24T10:00:01.000Z" },
              metadata: null,
            });
        }),
    );
    await chats.send("c1", "On its way");
    expect(store.chat("c1")?.outgoing).toEqual([
      { clientToken: expect.any(String), content: "On its way", state: "sending" },
    ]);
    store1();
    await vi.waitFor(() => expect(store.chat("c1")?.outgoing).toEqual([]));
    sessions.created[0]!.emit("message", advisorMessage("m1", "On its way"));
    expect(store.chat("c1")?.items.filter((i) => i.Id === "m1")).toHaveLength(1);
    expect(store.chat("c1")?.items.find((i) => i.Id === "m1")).toMatchObject({
      Content: "On its way",
      ParticipantId: "agent-p1",
    });
  });

  it("a final failure shows Not sent, keeps the text, and Retry sends it under the same ClientToken", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    const session = sessions.created[0]!;
    session.sendMessage.mockRejectedValueOnce(
      new Error("Failed to call sendMessage, No active connection"),
    );
    await chats.send("c1", "hello");
    await vi.waitFor(() => expect(store.chat("c1")?.outgoing[0]?.state).toBe("failed"));
    expect(store.chat("c1")?.outgoing[0]?.content).toBe("hello");
    expect(store.chat("c1")?.error).toBe(
      "The message was not sent: Failed to call sendMessage, No active connection",
    );
    const token = store.chat("c1")!.outgoing[0]!.clientToken;
    chats.retry("c1", token);
    await vi.waitFor(() => expect(store.chat("c1")?.outgoing).toEqual([]));
    expect(session.sendMessage.mock.calls.map((c) => c[0].clientToken)).toEqual([token, token]);
    expect(store.chat("c1")?.items.map((i) => i.Content)).toContain("hello");
    expect(store.chat("c1")?.error).toBeNull(); // the retry went through: the notice goes
    chats.retry("c1", token); // nothing left to retry: no third send
    expect(session.sendMessage).toHaveBeenCalledTimes(2);
  });

  it("messages still sending survive a reload: sent again with their ClientTokens, then forgotten", async () => {
    const before = setup();
    await before.chats.open(chatInfo("c1"));
    before.sessions.created[0]!.sendMessage.mockImplementation(() => new Promise(() => {}));
    await before.chats.send("c1", "first");
    await before.chats.send("c1", "second");
    const tokens = before.store.chat("c1")!.outgoing.map((o) => o.clientToken);
    expect(JSON.parse(before.storage.getItem("agent-console.unsent")!)).toEqual({
      c1: [
        { clientToken: tokens[0], content: "first" },
        { clientToken: tokens[1], content: "second" },
      ],
    });

    const after = setup(true, undefined, before.storage); // the reload
    await after.chats.open(chatInfo("c1"));
    await vi.waitFor(() => expect(after.store.chat("c1")?.outgoing).toEqual([]));
    expect(after.sessions.created[0]!.sendMessage.mock.calls.map((c) => c[0])).toEqual([
      { message: "first", contentType: ContentType.TEXT_MARKDOWN, clientToken: tokens[0] },
      { message: "second", contentType: ContentType.TEXT_MARKDOWN, clientToken: tokens[1] },
    ]);
    expect(after.store.chat("c1")?.items.map((i) => i.Content)).toEqual(["first", "second"]);
    expect(after.storage.getItem("agent-console.unsent")).toBeNull();
  });

  it("a message refused for good is not kept for a reload", async () => {
    const { sessions, store, chats, storage } = setup();
    await chats.open(chatInfo("c1"));
    sessions.created[0]!.sendMessage.mockRejectedValueOnce(new Error("refused"));
    await chats.send("c1", "nope");
    await vi.waitFor(() => expect(store.chat("c1")?.outgoing[0]?.state).toBe("failed"));
    expect(storage.getItem("agent-console.unsent")).toBeNull();
  });

  it("messages keep the order they were written while sending", async () => {
    const { store, chats } = setup();
    await chats.open(chatInfo("c1"));
    await chats.send("c1", "one");
    await chats.send("c1", "two");
    await chats.send("c1", "three");
    await vi.waitFor(() => expect(store.chat("c1")?.outgoing).toEqual([]));
    expect(store.chat("c1")?.items.map((i) => i.Content)).toEqual(["one", "two", "three"]);
  });

  it("a failed end is shown with the server's message", async () => {
    const { api, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    vi.mocked(api.end).mockRejectedValueOnce(
      new AgentApiError("ConflictException", "Contact c1 has ended.", 409),
    );
    await chats.end("c1");
    expect(store.chat("c1")?.error).toBe("The chat was not ended: Contact c1 has ended.");
  });

  it("the chat ends when its session reports the end", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    sessions.created[0]!.emit("ended", null);
    expect(store.chat("c1")?.ended).toBe(true);
  });
});

describe("attachments", () => {
  it("sending shows progress and then completes; a failure is shown", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    const s = sessions.created[0]!;
    const file = new File(["hello"], "receipt.png", { type: "image/png" });
    const sending = chats.sendAttachment("c1", file);
    expect(store.chat("c1")?.transfers).toMatchObject([
      { name: "receipt.png", direction: "upload", done: false },
    ]);
    await sending;
    expect(s.sendAttachment).toHaveBeenCalledWith({ attachment: file });
    expect(store.chat("c1")?.transfers).toMatchObject([{ name: "receipt.png", done: true }]);
    s.sendAttachment.mockRejectedValueOnce(
      new Error("Failed to call sendAttachment, No active connection"),
    );
    await chats.sendAttachment("c1", file);
    expect(store.chat("c1")?.error).toBe(
      "receipt.png was not sent: Failed to call sendAttachment, No active connection",
    );
  });
});

describe("a file chosen while the chat is still connecting", () => {
  function pendingConnect() {
    let finish!: (ok: boolean) => void;
    const prepare = (s: FakeSession) =>
      s.connect.mockImplementationOnce(
        () =>
          new Promise((resolve, reject) => {
            finish = (ok) =>
              ok
                ? resolve({
                    connectSuccess: true,
                    connectCalled: true,
                    _debug: null,
                    metadata: null,
                  })
                : reject(new Error("connect failed"));
          }),
      );
    return { prepare, finish: (ok: boolean) => finish(ok) };
  }

  it("is sent once the session has connected, not before", async () => {
    const connect = pendingConnect();
    const { sessions, store, chats } = setup(true, connect.prepare);
    const opening = chats.open(chatInfo("c1"));
    const s = sessions.created[0]!;
    const file = new File(["order,total\n"], "invoice.csv", { type: "text/csv" });
    const sending = chats.sendAttachment("c1", file);
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.sendAttachment).not.toHaveBeenCalled();
    connect.finish(true);
    await opening;
    await sending;
    expect(s.sendAttachment).toHaveBeenCalledWith({ attachment: file });
    expect(store.chat("c1")?.transfers).toMatchObject([{ name: "invoice.csv", done: true }]);
    expect(store.chat("c1")?.error).toBeFalsy();
  });

  it("is shown as not sent when connecting fails", async () => {
    const connect = pendingConnect();
    const { sessions, store, chats } = setup(true, connect.prepare);
    const opening = chats.open(chatInfo("c1"));
    const s = sessions.created[0]!;
    s.sendAttachment.mockRejectedValue(
      new Error("Failed to call sendAttachment, No active connection"),
    );
    const sending = chats.sendAttachment(
      "c1",
      new File(["x"], "invoice.csv", { type: "text/csv" }),
    );
    connect.finish(false);
    await opening;
    await sending;
    // The failed session is not called; the advisor sees why the file was not sent.
    expect(s.sendAttachment).not.toHaveBeenCalled();
    expect(store.chat("c1")?.error).toBe(
      "invoice.csv was not sent: Could not connect to the chat: connect failed",
    );
    expect(store.chat("c1")?.transfers).toMatchObject([{ name: "invoice.csv", done: true }]);
  });
});

describe("attachments that cannot be sent", () => {
  it("a file of a type not accepted, larger than 20 MB or empty is refused with the reason shown", async () => {
    const { sessions, store, chats } = setup();
    await chats.open(chatInfo("c1"));
    await chats.sendAttachment(
      "c1",
      new File(["x"], "tool.exe", { type: "application/x-msdownload" }),
    );
    expect(store.chat("c1")?.error).toBe(
      "tool.exe cannot be sent: this type of file is not accepted.",
    );
    const big = new File(["x"], "big.pdf", { type: "application/pdf" });
    Object.defineProperty(big, "size", { value: 20 * 1024 * 1024 + 1 });
    await chats.sendAttachment("c1", big);
    expect(store.chat("c1")?.error).toBe("big.pdf cannot be sent: files must be at most 20 MB.");
    await chats.sendAttachment("c1", new File([], "empty.csv", { type: "text/csv" }));
    expect(store.chat("c1")?.error).toBe("empty.csv cannot be sent: the file is empty.");
    expect(sessions.created[0]!.sendAttachment).not.toHaveBeenCalled();
  });
});
