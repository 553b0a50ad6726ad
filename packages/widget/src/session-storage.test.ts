import { describe, expect, it } from "vitest";
import { MAX_UNSENT, STORAGE_KEY, createChatStorage } from "./session-storage.js";
import { CHAT } from "./test-support/fakes.js";

describe("session storage", () => {
  it("keeps the contact and participant token across page loads in the page's session storage", () => {
    createChatStorage(sessionStorage).save({ chat: CHAT, visible: false });
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEY)!)).toEqual({
      chat: CHAT,
      visible: false,
    });
    expect(createChatStorage(sessionStorage).load()).toEqual({ chat: CHAT, visible: false });
    createChatStorage(sessionStorage).clear();
    expect(createChatStorage(sessionStorage).load()).toBeNull();
  });

  it("ignores a malformed stored value and a storage that throws", () => {
    sessionStorage.setItem(STORAGE_KEY, '{"chat":{"ContactId":1}}');
    expect(createChatStorage(sessionStorage).load()).toBeNull();
    const throwing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    const storage = createChatStorage(throwing);
    expect(() => storage.save({ chat: CHAT, visible: true })).not.toThrow();
    expect(storage.load()).toBeNull();
  });

  it("keeps the unread count; one that is not a whole number of 0 or more makes the stored value malformed", () => {
    const storage = createChatStorage(sessionStorage);
    storage.save({ chat: CHAT, visible: false, unread: 3 });
    expect(storage.load()).toEqual({ chat: CHAT, visible: false, unread: 3 });
    for (const unread of [-1, 1.5, "2", null]) {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ chat: CHAT, visible: false, unread }));
      expect(storage.load()).toBeNull();
    }
    storage.clear();
  });

  it("keeps unsent messages; a malformed or oversized list makes the stored value malformed", () => {
    const storage = createChatStorage(sessionStorage);
    const unsent = [{ clientToken: "t1", content: "hi" }];
    storage.save({ chat: CHAT, visible: true, unsent });
    expect(storage.load()).toEqual({ chat: CHAT, visible: true, unsent });
    const stored = (list: unknown) =>
      sessionStorage.setItem(
        STORAGE_KEY,
        JSON.stringify({ chat: CHAT, visible: true, unsent: list }),
      );
    stored([{ clientToken: "t1", content: 5 }]);
    expect(storage.load()).toBeNull();
    stored(
      Array.from({ length: MAX_UNSENT + 1 }, (_, i) => ({ clientToken: `t${i}`, content: "x" })),
    );
    expect(storage.load()).toBeNull();
    storage.clear();
  });
});
