/** The hub's routing rules, with a stand-in for the agent API's records (no database). */
import { chatFrame, ContentType, type Item } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../store/db.js";
import { AdvisorSocketHub, type AdvisorConnection } from "./advisor-hub.js";

interface Row {
  contact_id: string;
  status: string;
  advisor_id: string | null;
}

/**
 * A Db answering the queries the hub makes from an in-memory table, and from `items` (each
 * contact's stored items, seq 1 first) its reads of contacts' last seqs and of their items.
 */
function fakeDb(rows: Row[], items: Record<string, Item[]> = {}): Db {
  const full = (r: Row) => ({
    ...r,
    queue: "q",
    queued_at: new Date(0),
    participant_id: null,
    accepted_at: null,
  });
  return {
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.includes("SELECT contact_id, last_seq FROM contacts"))
        return (params[0] as string[]).map((id) => ({
          contact_id: id,
          last_seq: items[id]?.length ?? 0,
        }));
      if (sql.includes("SELECT seq, item FROM items"))
        return (items[params[0] as string] ?? [])
          .map((stored, i) => ({ seq: i + 1, item: stored }))
          .filter((row) => row.seq > (params[2] as number))
          .slice(0, params[1] as number);
      if (sql.includes("WHERE contact_id"))
        return rows.filter((r) => r.contact_id === params[0]).map(full);
      if (sql.includes("advisor_id = $1 AND status IN ('accepting', 'active')"))
        return rows
          .filter((r) => r.advisor_id === params[0] && ["accepting", "active"].includes(r.status))
          .map(full);
      if (sql.includes("advisor_id = $1 AND status = 'active'"))
        return rows.filter((r) => r.advisor_id === params[0] && r.status === "active").map(full);
      throw new Error(`unexpected query ${sql}`);
    },
  } as unknown as Db;
}

function connection(advisorId: string, contacts: string[]): AdvisorConnection & { sent: string[] } {
  const sent: string[] = [];
  const socket = { OPEN: 1, readyState: 1, send: (f: string) => sent.push(f), close: vi.fn() };
  return {
    id: advisorId,
    advisorId,
    contacts: new Set(contacts),
    topics: new Set(["aws/chat"]),
    socket: socket as never,
    sent,
  };
}

const item = (contactId: string, extra: Partial<Item> = {}): Item => ({
  Id: `${contactId}-${Math.random()}`,
  Type: "MESSAGE",
  ContentType: ContentType.TEXT_PLAIN,
  Content: "hi",
  AbsoluteTime: new Date().toISOString(),
  ContactId: contactId,
  InitialContactId: contactId,
  ...extra,
});
const joinedAgent = (contactId: string) =>
  item(contactId, {
    Type: "EVENT",
    ContentType: ContentType.PARTICIPANT_JOINED,
    ParticipantRole: "AGENT",
    Content: undefined,
  });

describe("the advisor socket hub", () => {
  it("delivers a held contact's items as aws/chat frames, and nobody else's", async () => {
    const hub = new AdvisorSocketHub(fakeDb([]), () => {});
    const sam = connection("sam", ["c1"]);
    const kim = connection("kim", ["c2"]);
    void hub.add(sam);
    void hub.add(kim);
    const message = item("c1");
    hub.handleCentre({ kind: "item", contactId: "c1", item: message });
    await hub.idle();
    expect(sam.sent).toEqual([JSON.stringify(chatFrame(message))]);
    expect(kim.sent).toEqual([]);
  });

  it("a streamed answer reaches the advisor once, complete: its chunks are not sent to the console", async () => {
    const hub = new AdvisorSocketHub(fakeDb([]), () => {});
    const sam = connection("sam", ["c1"]);
    void hub.add(sam);
    const chunk = item("c1", {
      Id: "answer",
      ParticipantRole: "SYSTEM",
      MessageMetadata: { MessageId: "answer", MessageCompleted: false, ChunkNumber: 1 },
    });
    const completed = {
      ...chunk,
      MessageMetadata: { MessageId: "answer", MessageCompleted: true },
    };
    hub.handleCentre({ kind: "item", contactId: "c1", item: chunk });
    hub.handleCentre({ kind: "item", contactId: "c1", item: completed });
    await hub.idle();
    expect(sam.sent).toEqual([JSON.stringify(chatFrame(completed))]);
  });

  it("follows a contact from the moment its advisor joins it, while the accept is still in progress", async () => {
    const rows: Row[] = [{ contact_id: "c9", status: "accepting", advisor_id: "sam" }];
    const hub = new AdvisorSocketHub(fakeDb(rows), () => {});
    const sam = connection("sam", []);
    const kim = connection("kim", []);
    void hub.add(sam);
    void hub.add(kim);
    hub.handleCentre({ kind: "item", contactId: "c9", item: joinedAgent("c9") });
    // Another of Sam's chats changes meanwhile: the list does not have c9 yet, c9 stays followed.
    hub.handleAgent({ kind: "chats", advisorId: "sam" });
    hub.handleCentre({ kind: "item", contactId: "c9", item: item("c9") });
    await hub.idle();
    expect(sam.sent).toHaveLength(2);
    expect(kim.sent).toEqual([]);
  });

  it("stops following a contact once its chat.ended has been delivered; close messages do not close the socket", async () => {
    const hub = new AdvisorSocketHub(fakeDb([]), () => {});
    const sam = connection("sam", ["c1"]);
    void hub.add(sam);
    hub.handleCentre({ kind: "close", contactId: "c1", reason: "chat ended" });
    hub.handleCentre({
      kind: "item",
      contactId: "c1",
      item: item("c1", { Type: "EVENT", ContentType: ContentType.CHAT_ENDED }),
    });
    hub.handleCentre({ kind: "item", contactId: "c1", item: item("c1") });
    await hub.idle();
    expect(sam.sent).toHaveLength(1);
    expect(sam.socket.close).not.toHaveBeenCalled();
    expect(sam.contacts.size).toBe(0);
  });

  it("a socket that opens while its advisor accepts a chat follows it, though the join was handled before it was added", async () => {
    const rows: Row[] = [{ contact_id: "c7", status: "accepting", advisor_id: "sam" }];
    const hub = new AdvisorSocketHub(fakeDb(rows), () => {});
    // The accept, while Sam's socket is still opening: nobody here follows c7 yet.
    hub.handleCentre({ kind: "item", contactId: "c7", item: joinedAgent("c7") });
    await hub.idle();
    // Sam's socket is added while the accept is still in progress (no "chats" message yet).
    const sam = connection("sam", []);
    await hub.add(sam);
    expect([...sam.contacts]).toEqual(["c7"]);
    const message = item("c7");
    hub.handleCentre({ kind: "item", contactId: "c7", item: message });
    await hub.idle();
    expect(sam.sent).toEqual([JSON.stringify(chatFrame(message))]);
  });

  it("closes a socket whose advisor's chats cannot be read (1011), so the console opens another", async () => {
    const errors: unknown[] = [];
    const failing = {
      query: () => Promise.reject(new Error("store down")),
    } as unknown as Db;
    const hub = new AdvisorSocketHub(failing, (e) => errors.push(e));
    const sam = connection("sam", []);
    await hub.add(sam);
    expect(sam.socket.close).toHaveBeenCalledWith(1011, "try again");
    expect(errors).toHaveLength(1);
  });

  it("re-reads the advisor's held chats when the agent channel says they changed", async () => {
    const rows: Row[] = [{ contact_id: "c5", status: "active", advisor_id: "sam" }];
    const hub = new AdvisorSocketHub(fakeDb(rows), () => {});
    const sam = connection("sam", ["old"]);
    void hub.add(sam);
    hub.handleAgent({ kind: "chats", advisorId: "sam" });
    await hub.idle();
    expect([...sam.contacts]).toEqual(["c5"]);
  });

  it("after the fan-out was interrupted, reads the advisor's chats again and passes each one's missed items once, in order", async () => {
    const rows: Row[] = [{ contact_id: "c1", status: "active", advisor_id: "sam" }];
    const stored: Record<string, Item[]> = { c1: [item("c1"), item("c1")] };
    const hub = new AdvisorSocketHub(fakeDb(rows, stored), () => {});
    const sam = connection("sam", []);
    await hub.add(sam);
    const live = (contactId: string, seq: number) =>
      hub.handleCentre({ kind: "item", contactId, item: stored[contactId]![seq - 1]!, seq });
    stored.c1!.push(item("c1"), item("c1"), item("c1"));
    live("c1", 3);
    // Items 4 and 5 are lost with the fan-out; meanwhile Sam accepted c2, whose word was lost too.
    rows.push({ contact_id: "c2", status: "active", advisor_id: "sam" });
    stored.c2 = [item("c2")];
    hub.resync();
    live("c1", 5);
    await hub.idle();
    // c2 is followed from where it stood when read (what came before, the console reads).
    stored.c2.push(item("c2"));
    live("c2", 2);
    await hub.idle();
    const frames = (contactId: string, seqs: number[]) =>
      seqs.map((seq) => JSON.stringify(chatFrame(stored[contactId]![seq - 1]!)));
    expect(sam.sent).toEqual([...frames("c1", [3, 4, 5]), ...frames("c2", [2])]);
    expect([...sam.contacts].sort()).toEqual(["c1", "c2"]);
  });
});
