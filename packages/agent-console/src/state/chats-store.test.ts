import { MAX_CONCURRENT_CHATS } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { ChatsStore } from "./chats-store.js";

describe("the chats store", () => {
  it("holds up to 10 chats at once; an 11th is refused until one has ended", () => {
    const store = new ChatsStore();
    for (let i = 0; i < MAX_CONCURRENT_CHATS; i++) expect(store.open(chatInfo(`c${i}`))).toBe(true);
    expect(store.open(chatInfo("c10"))).toBe(false);
    expect(store.getSnapshot().chats).toHaveLength(10);
    store.setEnded("c3");
    expect(store.open(chatInfo("c10"))).toBe(true);
  });

  it("opening the same contact twice keeps one chat", () => {
    const store = new ChatsStore();
    store.open(chatInfo("c1"));
    store.open(chatInfo("c1", { CustomerName: "Renamed" }));
    expect(store.getSnapshot().chats.map((c) => c.info.CustomerName)).toEqual(["Renamed"]);
  });

  it("the first chat comes into view; selecting a chat clears its unread count", () => {
    const store = new ChatsStore();
    store.open(chatInfo("c1"));
    store.open(chatInfo("c2"));
    expect(store.getSnapshot().selected).toBe("c1");
    store.addItems("c2", [customerMessage("x", "hi", "c2"), customerMessage("y", "there", "c2")]);
    store.addItems("c1", [customerMessage("z", "seen", "c1")]);
    expect(store.chat("c2")?.unread).toBe(2);
    expect(store.chat("c1")?.unread).toBe(0);
    store.select("c2");
    expect(store.chat("c2")?.unread).toBe(0);
  });

  it("closing the chat in view brings the next one into view", () => {
    const store = new ChatsStore();
    store.open(chatInfo("c1"));
    store.open(chatInfo("c2"));
    store.remove("c1");
    expect(store.getSnapshot().selected).toBe("c2");
    store.remove("c2");
    expect(store.getSnapshot().selected).toBeNull();
  });

  it("notifies subscribers on change only, with a new snapshot each time", () => {
    const store = new ChatsStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.open(chatInfo("c1"));
    const before = store.getSnapshot();
    store.setTyping("c1", false);
    expect(listener).toHaveBeenCalledTimes(1);
    store.setTyping("c1", true);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot()).not.toBe(before);
  });
});
