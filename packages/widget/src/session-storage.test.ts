import { describe, expect, it } from "vitest";
import { STORAGE_KEY, createChatStorage } from "./session-storage.js";
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
});
