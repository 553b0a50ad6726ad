/**
 * Issue 26, `data-persistent-chat="on"`: each chat started continues the visitor's last one,
 * remembered in local storage; one the contact centre will not continue starts afresh.
 */
import { describe, expect, it } from "vitest";
import { createGateway } from "./gateway.js";
import { LAST_CHAT_KEY, withPersistentChat } from "./persistent-chat.js";
import { readSettings } from "./settings.js";
import { CHAT } from "./test-support/fakes.js";

const settings = (dataset: Record<string, string> = {}) =>
  readSettings(
    { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset },
    "http://127.0.0.1:8080/",
  );

/** A contact centre answering start-chat: each body seen, a new ContactId each time. */
function centre(refuse: (body: Record<string, unknown>) => boolean = () => false) {
  const bodies: Record<string, unknown>[] = [];
  let n = 0;
  const fetch = async (_url: string, init?: RequestInit) => {
    const body = JSON.parse(init!.body as string) as Record<string, unknown>;
    bodies.push(body);
    if (refuse(body)) return new Response(JSON.stringify({ message: "no" }), { status: 400 });
    const result = { ...CHAT, ContactId: `contact-${++n}` };
    return new Response(JSON.stringify({ data: { startChatResult: result } }), { status: 200 });
  };
  return { bodies, fetch };
}

class MemoryStorage {
  values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
}

describe("persistent chat in the widget", () => {
  it("is off unless data-persistent-chat is on", () => {
    expect(settings().persistentChat).toBe(false);
    expect(settings({ persistentChat: "ON" }).persistentChat).toBe(true);
    expect(settings({ persistentChat: "yes" }).persistentChat).toBe(false);
  });

  it("the first chat starts afresh; the next continues it (FROM_SEGMENT), and so on", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
    expect(c.bodies[0]!.PersistentChat).toBeUndefined();
    expect(storage.values.get(LAST_CHAT_KEY)).toBe("contact-1");
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-2");
    expect(c.bodies[1]!.PersistentChat).toEqual({
      RehydrationType: "FROM_SEGMENT",
      SourceContactId: "contact-1",
    });
    await gateway.startChat(undefined);
    expect(c.bodies[2]!.PersistentChat).toMatchObject({ SourceContactId: "contact-2" });
  });

  it("a last chat the contact centre will not continue (400) starts a new chat, remembered next", async () => {
    const c = centre((body) => body.PersistentChat !== undefined);
    const storage = new MemoryStorage();
    storage.setItem(LAST_CHAT_KEY, "still-going");
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
    expect(c.bodies.map((b) => b.PersistentChat)).toEqual([
      { RehydrationType: "FROM_SEGMENT", SourceContactId: "still-going" },
      undefined,
    ]);
    expect(storage.values.get(LAST_CHAT_KEY)).toBe("contact-1");
  });

  it("any other failure is the start's failure, and the last chat stays remembered", async () => {
    const storage = new MemoryStorage();
    storage.setItem(LAST_CHAT_KEY, "contact-0");
    const failing = async () => new Response("", { status: 503 });
    const gateway = withPersistentChat(createGateway(settings(), failing), storage);
    await expect(gateway.startChat(undefined)).rejects.toThrow("503");
    expect(storage.values.get(LAST_CHAT_KEY)).toBe("contact-0");
  });

  it("storage that refuses (private mode) starts chats afresh and never fails them", async () => {
    const c = centre();
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), refusing);
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
    expect(c.bodies[0]!.PersistentChat).toBeUndefined();
  });
});
