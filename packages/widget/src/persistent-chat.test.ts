/**
 * Issue 26, `data-persistent-chat="on"`: each chat started continues the visitor's last one,
 * remembered in local storage; one the contact centre will not continue starts afresh.
 * Issue 57: what is remembered proves the chat the visitor's (its continuation secret, the jwt
 * subject it was started with); another subject, or the host's forget(), starts afresh.
 */
import { describe, expect, it } from "vitest";
import { createGateway } from "./gateway.js";
import { LAST_CHAT_KEY, withPersistentChat } from "./persistent-chat.js";
import { readSettings } from "./settings.js";
import { CHAT, jwtWith } from "./test-support/fakes.js";

const settings = (dataset: Record<string, string> = {}) =>
  readSettings(
    { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset },
    "http://127.0.0.1:8080/",
  );

/**
 * A contact centre answering start-chat: each body seen, a new ContactId and ContinuationToken
 * each time; `refuse` answers a body with that status instead.
 */
function centre(refuse: (body: Record<string, unknown>) => number | null = () => null) {
  const bodies: Record<string, unknown>[] = [];
  let n = 0;
  const fetch = async (_url: string, init?: RequestInit) => {
    const body = JSON.parse(init!.body as string) as Record<string, unknown>;
    bodies.push(body);
    const status = refuse(body);
    if (status !== null) return new Response(JSON.stringify({ message: "no" }), { status });
    n++;
    const result = { ...CHAT, ContactId: `contact-${n}`, ContinuationToken: `secret-${n}` };
    return new Response(JSON.stringify({ data: { startChatResult: result } }), { status: 200 });
  };
  return { bodies, fetch };
}

class MemoryStorage {
  values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

const remembered = (contactId: string, continuationToken: string, subject: string | null = null) =>
  JSON.stringify({ contactId, continuationToken, subject });
const continuing = (id: number) => ({
  RehydrationType: "FROM_SEGMENT",
  SourceContactId: `contact-${id}`,
  ContinuationToken: `secret-${id}`,
});

describe("persistent chat in the widget", () => {
  it("is off unless data-persistent-chat is on", () => {
    expect(settings().persistentChat).toBe(false);
    expect(settings({ persistentChat: "ON" }).persistentChat).toBe(true);
    expect(settings({ persistentChat: "yes" }).persistentChat).toBe(false);
  });

  it("the first chat starts afresh; the next continues it (FROM_SEGMENT) with its secret, and so on", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
    expect(c.bodies[0]!.PersistentChat).toBeUndefined();
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-1", "secret-1"));
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-2");
    expect(c.bodies[1]!.PersistentChat).toEqual(continuing(1));
    await gateway.startChat(undefined);
    expect(c.bodies[2]!.PersistentChat).toEqual(continuing(2));
  });

  for (const status of [400, 403]) {
    it(`a last chat the contact centre will not continue (${status}) starts a new chat without an error, remembered next`, async () => {
      const c = centre((body) => (body.PersistentChat !== undefined ? status : null));
      const storage = new MemoryStorage();
      storage.setItem(LAST_CHAT_KEY, remembered("contact-0", "secret-0"));
      const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
      expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
      expect(c.bodies.map((b) => b.PersistentChat)).toEqual([continuing(0), undefined]);
      expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-1", "secret-1"));
    });
  }

  it("a chat started with one jwt subject is continued with that subject only; another subject, or none, starts afresh and forgets it", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    const alice = jwtWith({ sub: "alice" });
    await gateway.startChat(alice);
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-1", "secret-1", "alice"));
    await gateway.startChat(jwtWith({ sub: "alice", attributes: { orderNumber: "A-1" } }));
    expect(c.bodies[1]!.PersistentChat).toEqual(continuing(1));
    await gateway.startChat(jwtWith({ sub: "bob" }));
    expect(c.bodies[2]!.PersistentChat).toBeUndefined();
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-3", "secret-3", "bob"));
    // Signed out: no jwt is another visitor too.
    await gateway.startChat(undefined);
    expect(c.bodies[3]!.PersistentChat).toBeUndefined();
  });

  it("a jwt without a subject cannot tell visitors apart: its chat is not remembered, nor does it continue one", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    await gateway.startChat(undefined);
    await gateway.startChat(jwtWith({ attributes: { orderNumber: "A-1" } }));
    expect(c.bodies[1]!.PersistentChat).toBeUndefined();
    expect(storage.values.has(LAST_CHAT_KEY)).toBe(false);
    // A numeric subject is a subject (as the server reads it).
    await gateway.startChat(jwtWith({ sub: 1001 }));
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-3", "secret-3", "1001"));
  });

  it("forget() forgets the remembered chat, and a start under way when it came remembers nothing", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    await gateway.startChat(undefined);
    gateway.forget!();
    expect(storage.values.has(LAST_CHAT_KEY)).toBe(false);
    const starting = gateway.startChat(undefined);
    gateway.forget!();
    await starting;
    expect(c.bodies[1]!.PersistentChat).toBeUndefined();
    expect(storage.values.has(LAST_CHAT_KEY)).toBe(false);
    await gateway.startChat(undefined);
    expect(c.bodies[2]!.PersistentChat).toBeUndefined();
  });

  it("what an older widget remembered (a bare contact id) proves nothing: a new chat, no continuation", async () => {
    const c = centre();
    const storage = new MemoryStorage();
    storage.setItem(LAST_CHAT_KEY, "contact-0");
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), storage);
    await gateway.startChat(undefined);
    expect(c.bodies[0]!.PersistentChat).toBeUndefined();
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-1", "secret-1"));
  });

  it("any other failure is the start's failure, and the last chat stays remembered", async () => {
    const storage = new MemoryStorage();
    storage.setItem(LAST_CHAT_KEY, remembered("contact-0", "secret-0"));
    const failing = async () => new Response("", { status: 503 });
    const gateway = withPersistentChat(createGateway(settings(), failing), storage);
    await expect(gateway.startChat(undefined)).rejects.toThrow("503");
    expect(storage.values.get(LAST_CHAT_KEY)).toBe(remembered("contact-0", "secret-0"));
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
      removeItem: () => {
        throw new Error("SecurityError");
      },
    };
    const gateway = withPersistentChat(createGateway(settings(), c.fetch), refusing);
    expect((await gateway.startChat(undefined)).ContactId).toBe("contact-1");
    expect(c.bodies[0]!.PersistentChat).toBeUndefined();
  });
});
