/**
 * Issue 60 (5a, 5b), the team's history attacked, on both stores: every way a chat ends (the
 * advisor's End, the visitor leaving while held, waiting or with the bot, a transfer then the
 * visitor leaving, its time running out) commits a chat.ended the builder sees, so its row is
 * listed, with every advisor who took part; the catch-up builds more than one batch; search
 * and filter input of any shape (tsquery syntax, quotes, backslashes, unicode, broken UTF-8,
 * over-long words) is a 200 or a 400, never a 5xx; any case in any script; tags a visitor
 * types never come back as highlights; page cursors tampered with are a 400 or a page; and
 * who may read it.
 */
import {
  AgentApiPath,
  ContentType,
  HistoryApiPath,
  ParticipantPath,
  TransferApiPath,
  agentContactPath,
  type HistoryConversation,
  type HistoryResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { catchUp } from "../../src/history/builder.js";
import { endExpiredChats } from "../../src/contact-centre/expiry.js";
import { ENGINES } from "../support/databases.js";
import { call } from "../support/client.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  available,
  adminPost,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const ADMIN_TOKEN = "history-attack-admin-token-0123456789a";
/** Many chats from this one address: the start-chat limit (20 a minute) is not under test. */
const MANY_CHATS = { START_CHAT_BURST: "1000", START_CHAT_PER_MINUTE: "60000" };
const BOUND = { timeout: 15_000, interval: 50 };
const isEnded = (i: { ContentType?: string }) => i.ContentType === ContentType.CHAT_ENDED;

describe.each(ENGINES)("the team's history attacked (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  let kimId: string;
  let samId: string;
  const opened: { close(): void }[] = [];

  const list = (who: { token: string } | null, query = "") =>
    http<HistoryResponse & { message?: string }>(server.url + HistoryApiPath.List + query, {
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });
  const search = async (words: string, who: { token: string } = kim) => {
    const r = await list(who, `?Search=${encodeURIComponent(words)}`);
    expect(r.status, words).toBe(200);
    return r.body.Conversations;
  };
  /** The conversation's history row, once built. */
  const rowOf = (contactId: string, query = "") =>
    vi.waitFor(async () => {
      const found = (await list(kim, query)).body.Conversations.find(
        (r) => r.ContactId === contactId,
      );
      expect(found, contactId).toBeDefined();
      return found!;
    }, BOUND);

  async function visitor(name: string, ...lines: string[]): Promise<Customer> {
    const c = await widgetCustomer(server, null, { ParticipantDetails: { DisplayName: name } });
    opened.push(c);
    await c.say("Talk to an advisor");
    for (const line of lines) await c.say(line);
    return c;
  }
  const leave = async (c: Customer) => {
    const r = await call(server.url, ParticipantPath.DisconnectParticipant, c.connectionToken, {});
    expect(r.status).toBe(200);
    await c.waitFor(isEnded, 15_000);
  };
  const endBy = async (who: Advisor, c: Customer) => {
    expect((await who.request(agentContactPath(AgentApiPath.End, c.contactId))).status).toBe(200);
    await c.waitFor(isEnded, 15_000);
  };
  const names = (r: HistoryConversation) => r.Advisors.map((a) => a.Name);

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN, ...MANY_CHATS });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    [samId, kimId] = await available(sam, kim);
  }, 120_000);
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("every way a chat ends builds its row: the advisor's End, the visitor leaving (held, waiting, with the bot), after a transfer", async () => {
    const ended = await visitor("Ended By Sam", "alpha question");
    await heldBy(sam, ended);
    await endBy(sam, ended);

    const left = await visitor("Left Held", "bravo question");
    await heldBy(sam, left);
    await leave(left);

    const gaveUp = await visitor("Gave Up Waiting", "charlie question");
    await vi.waitFor(async () => {
      const q = await sam.request<{ Contacts: { ContactId: string }[] }>(AgentApiPath.Queue);
      expect(q.body.Contacts.map((c) => c.ContactId)).toContain(gaveUp.contactId);
    }, BOUND);
    await leave(gaveUp);

    const botOnly = await widgetCustomer(server, null, {
      ParticipantDetails: { DisplayName: "Bot Only" },
    });
    opened.push(botOnly);
    await botOnly.say("delta question");
    await leave(botOnly);

    const moved = await visitor("Moved Twice", "echo question");
    await heldBy(sam, moved);
    const toQueue = await sam.request(agentContactPath(TransferApiPath.Transfer, moved.contactId), {
      body: { Queue: true, Note: "foxtrot note" },
    });
    expect(toQueue.status).toBe(200);
    await heldBy(kim, moved);
    await leave(moved);

    const rows = {
      ended: await rowOf(ended.contactId),
      left: await rowOf(left.contactId),
      gaveUp: await rowOf(gaveUp.contactId),
      botOnly: await rowOf(botOnly.contactId),
      moved: await rowOf(moved.contactId),
    };
    expect(names(rows.ended)).toEqual(["Sam"]);
    expect(names(rows.left)).toEqual(["Sam"]);
    expect(names(rows.gaveUp)).toEqual([]);
    expect(names(rows.botOnly)).toEqual([]);
    expect(names(rows.moved)).toEqual(["Sam", "Kim"]);
    expect(rows.left.CustomerName).toBe("Left Held");
    // Each is found by its words, the note of a transfer too.
    for (const [word, contactId] of [
      ["alpha", ended.contactId],
      ["bravo", left.contactId],
      ["charlie", gaveUp.contactId],
      ["delta", botOnly.contactId],
      ["echo", moved.contactId],
      ["foxtrot", moved.contactId],
    ] as const)
      expect(
        (await search(word)).map((r) => r.ContactId),
        word,
      ).toEqual([contactId]);
    expect(
      (await list(kim, `?AdvisorId=${kimId}`)).body.Conversations.map((r) => r.ContactId),
    ).toContain(moved.contactId);
  });

  it("a chat whose time ran out (the expiry sweep) gets its row too", async () => {
    const c = await visitor("Ran Out", "golf question");
    await heldBy(sam, c);
    const later = { now: () => Date.now() + 26 * 60 * 60 * 1000 }; // past the default 25 hours
    expect(
      await endExpiredChats(server.built.deps.db, server.built.deps.centre, later),
    ).toBeGreaterThanOrEqual(1);
    await c.waitFor(isEnded, 15_000);
    const row = await rowOf(c.contactId);
    expect(names(row)).toEqual(["Sam"]);
    expect((await search("golf")).map((r) => r.ContactId)).toEqual([c.contactId]);
  });

  it("the catch-up builds every missing row, batch after batch (1,100 rows)", async () => {
    const db = server.built.deps.db;
    await db.query(
      `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
       SELECT 'bulk-' || lpad(g::text, 5, '0'), 'bulk-' || lpad(g::text, 5, '0'), 'i', 'f', 'ended',
              timestamptz '2001-01-01T00:00:00Z' + g * interval '1 second',
              timestamptz '2001-01-01T00:00:00Z' + g * interval '1 second'
       FROM generate_series(1, 1100) g`,
    );
    expect(await catchUp(db)).toBe(1100);
    expect(await catchUp(db)).toBe(0);
    const r = await list(kim, "?To=2001-01-02T00:00:00Z");
    expect(r.body.Conversations).toHaveLength(50);
    expect(r.body.Conversations[0]!.ContactId).toBe("bulk-01100");
  });

  it("search and filter input of any shape is a 200 or a 400, never a 5xx", async () => {
    const ok: string[] = [
      "a & b | !c <-> d:* (e",
      "a<2>b",
      "!!!",
      "((((((((((",
      "))))",
      "\\",
      "\\\\ \\' \\\"",
      "'",
      "''",
      '"',
      '"""',
      '"unclosed phrase',
      '"a"b"c"d"e"f',
      "-",
      "- -",
      "or",
      "or or or",
      "a or -b or",
      "x:*",
      "x:A",
      "*",
      "%_%",
      "<mark>",
      "</mark><script>",
      "&amp; &lt;",
      "x".repeat(200),
      "é".repeat(200),
      "🙂🙂🙂",
      "e\u0301cole",
      "\u0301\u0301",
      "\u200b\u200f\u202e",
      "東京 ПРИВЕТ École",
      " ",
      "\t\n",
    ];
    for (const words of ok) {
      const r = await list(kim, `?Search=${encodeURIComponent(words)}`);
      expect(r.status, JSON.stringify(words)).toBe(200);
      expect(Array.isArray(r.body.Conversations)).toBe(true);
    }
    // Broken UTF-8 and lone surrogates in the address: a 200 or a 400.
    for (const raw of ["%ED%A0%80", "%FF", "%C0%AF", "%F4%90%80%80"]) {
      for (const name of ["Search", "Visitor", "AdvisorId", "From", "Before"]) {
        const r = await list(kim, `?${name}=${raw}`);
        expect([200, 400], `${name}=${raw}`).toContain(r.status);
      }
    }
    // NUL anywhere, over-long values, a parameter given twice: 400.
    for (const query of [
      "?Search=%00",
      "?Visitor=a%00b",
      "?AdvisorId=%00",
      `?Search=${"y".repeat(201)}`,
      `?AdvisorId=${"z".repeat(65)}`,
      "?Search=a&Search=b",
      // Only words left out: every conversation would be read (history-search-cost.test.ts).
      "?Search=-or",
    ]) {
      const r = await list(kim, query);
      expect(r.status, query).toBe(400);
    }
    // A parameter it does not know is left out (Fastify's removeAdditional): still one page.
    const unknown = await list(kim, "?Limit=100000");
    expect(unknown.status).toBe(200);
    expect(unknown.body.Conversations.length).toBeLessThanOrEqual(50);
  });

  it("any case, in any script: accented, Cyrillic and CJK words are found; a visitor's tags never come back as highlights", async () => {
    const c = await visitor(
      "Zoë Ünal",
      "L'école est fermée, привет из Москвы, 東京 hotel",
      "see <mark>fake</mark> and </mark> here <b>bold</b> <script>x()</script> then hotel again",
    );
    await heldBy(sam, c);
    await endBy(sam, c);
    await rowOf(c.contactId);
    for (const words of ["ÉCOLE", "école", "ПРИВЕТ", "москвы", "東京", "FERMÉE"])
      expect(
        (await search(words)).map((r) => r.ContactId),
        words,
      ).toEqual([c.contactId]);
    expect(
      (await list(kim, `?Visitor=${encodeURIComponent("zOË üNAL")}`)).body.Conversations.map(
        (r) => r.ContactId,
      ),
    ).toEqual([c.contactId]);
    for (const words of ["hotel", "fake", "bold"]) {
      const [row] = await search(words);
      // What the console does (HistoryView's Snippet): the odd parts are the matches.
      const marked = row!.Snippet!.split(/<mark>|<\/mark>/).filter((_, i) => i % 2 === 1);
      expect(marked.length, row!.Snippet).toBeGreaterThan(0);
      for (const m of marked) expect(m.toLowerCase(), row!.Snippet).toBe(words);
      expect(row!.Snippet).not.toMatch(/<script|<b>/);
    }
  });

  it("page cursors tampered with are a 400, or a page from where they point; never a 5xx", async () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    const bad = [
      "not-a-cursor",
      b64("x|y|z"),
      b64("|x"),
      b64("2020-01-01T00:00:00Z|"),
      b64("1|x"), // a time to Date.parse, not to the store
      b64("0000-01-01T00:00:00Z|x"),
      b64("+275760-09-13T00:00:00.000Z|x"),
      b64("-000001-01-01T00:00:00Z|x"),
      b64("2020-01-01T00:00:00Z|a\u0000b"), // NUL inside the cursor, past the input guard
      b64("2020-01-01T25:00:00|x"),
      Buffer.from([0xff, 0xfe, 0x7c, 0x41]).toString("base64url"),
      "%00",
      "x".repeat(401),
    ];
    for (const cursor of bad) {
      const r = await list(
        kim,
        `?Before=${cursor.startsWith("%") ? cursor : encodeURIComponent(cursor)}`,
      );
      expect(r.status, cursor).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
    for (const cursor of [
      b64("2999-01-01T00:00:00.000Z|zzz"),
      b64("2020-01-01T00:00:00.000Z|no-such-contact"),
      b64("Sat, 01 Jan 2000 00:00:00 GMT|x"),
      `${b64("2020-01-01T00:00:00.000Z|x")}==`,
    ]) {
      const r = await list(kim, `?Before=${encodeURIComponent(cursor)}`);
      expect(r.status, cursor).toBe(200);
    }
    // A Next read under one filter, then used without it or with another: a page, no error.
    const first = await list(kim, "?To=2001-01-02T00:00:00Z");
    expect(first.body.Next).toBeTruthy();
    for (const query of ["", "?Visitor=nobody", `?AdvisorId=${samId}`, "?Search=alpha"]) {
      const r = await list(kim, `${query}${query ? "&" : "?"}Before=${first.body.Next}`);
      expect(r.status, query).toBe(200);
    }
  });

  it("who may read it: a signed-out or disabled advisor 403; a live chat's transcript only its holder's", async () => {
    const ned = await addAdvisor(server, ADMIN_TOKEN, "ned", "Ned");
    const ola = await addAdvisor(server, ADMIN_TOKEN, "ola", "Ola");
    expect((await list(ned)).status).toBe(200);
    expect((await adminPost(server, ADMIN_TOKEN, "/admin-api/advisors/ned/disable")).status).toBe(
      200,
    );
    expect((await ola.request(AgentApiPath.SignOut, { body: {} })).status).toBe(200);
    for (const who of [ned, ola, { token: "" }]) {
      expect((await list(who)).status).toBe(403);
      expect((await list(who, "?Search=alpha")).status).toBe(403);
      const advisors = await http(server.url + HistoryApiPath.Advisors, {
        headers: { authorization: `Bearer ${who.token}` },
      });
      expect(advisors.status).toBe(403);
    }
    const live = await visitor("Still Here", "hotel secret");
    const transcript = (who: Advisor) =>
      who.request(agentContactPath(HistoryApiPath.Transcript, live.contactId), { method: "GET" });
    expect((await transcript(kim)).status).toBe(404); // waiting: nobody's
    await heldBy(sam, live);
    expect((await transcript(kim)).status).toBe(404); // Sam's
    expect((await transcript(sam)).status).toBe(200);
    expect((await search("secret")).map((r) => r.ContactId)).toEqual([]); // live: not history
    await endBy(sam, live);
    expect((await transcript(kim)).status).toBe(200); // ended: the team's
    await vi.waitFor(
      async () =>
        expect((await search("secret")).map((r) => r.ContactId)).toEqual([live.contactId]),
      BOUND,
    );
  });
});
