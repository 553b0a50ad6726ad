/**
 * Issue 60 (5a), the team's history: once a chat ends its row is built (off the message path)
 * with the visitor, every advisor who took part and the first line; any signed-in advisor lists
 * them, the last ended first, filtered by time, advisor and visitor, a page at a time; a live
 * chat is not listed; participant tokens and strangers are refused, bad filters are a 400; and
 * rows a crash left out are built by the catch-up.
 */
import {
  AgentApiPath,
  ContentType,
  HistoryApiPath,
  NotesApiPath,
  TransferApiPath,
  agentContactPath,
  type HistoryResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { catchUp } from "../../src/history/builder.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  available,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
} from "./helpers.js";

const ADMIN_TOKEN = "history-admin-token-0123456789abcdef01";
const BOUND = { timeout: 15_000 };

describe.each(ENGINES)("the team's history (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  let kimId: string;
  const opened: { close(): void }[] = [];
  const ids: Record<string, string> = {};

  const list = (who: { token: string } | string | null, query = "") =>
    http<HistoryResponse & { message?: string }>(server.url + HistoryApiPath.List + query, {
      headers:
        who === null
          ? {}
          : { authorization: `Bearer ${typeof who === "string" ? who : who.token}` },
    });
  const listed = async (query = "") => (await list(kim, query)).body.Conversations;

  /** A visitor named `name` who says `words`, ends with `advisor` (after `transferTo`, if given). */
  async function conversation(
    name: string,
    words: string,
    advisor: Advisor,
    transferTo?: string,
    note?: string,
  ) {
    const c = await widgetCustomer(server, null, { ParticipantDetails: { DisplayName: name } });
    opened.push(c);
    await c.say("Talk to an advisor");
    await heldBy(advisor, c);
    await c.say(words);
    if (note) {
      const written = await advisor.request(agentContactPath(NotesApiPath.Notes, c.contactId), {
        body: { Body: note },
      });
      expect(written.status).toBe(200);
    }
    let ender = advisor;
    if (transferTo) {
      const moved = await advisor.request(agentContactPath(TransferApiPath.Transfer, c.contactId), {
        body: { AdvisorId: transferTo },
      });
      expect(moved.status).toBe(200);
      ender = kim;
      await vi.waitFor(async () => {
        const chats = (await kim.request<{ Chats: { ContactId: string }[] }>(AgentApiPath.Chats))
          .body.Chats;
        expect(chats.map((x) => x.ContactId)).toContain(c.contactId);
      }, BOUND);
    }
    expect((await ender.request(agentContactPath(AgentApiPath.End, c.contactId))).status).toBe(200);
    await c.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED, 15_000);
    return c.contactId;
  }

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    [, kimId] = await available(sam, kim);
    ids.ada = await conversation(
      "Ada Lovelace",
      "Where is my parcel? It was left in the rain",
      sam,
      undefined,
      "Customer is a VIP",
    );
    ids.bob = await conversation("Bob 100%_Sure", "I want a refund", sam, kimId);
    await vi.waitFor(async () => expect((await listed()).length).toBe(2), BOUND);
  }, 120_000);
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    for (const o of opened.splice(0)) o.close();
    await server?.close();
  });

  it("lists the ended conversations, the last ended first, with the visitor, every advisor and the first line", async () => {
    const rows = await listed();
    expect(rows.map((r) => r.ContactId)).toEqual([ids.bob, ids.ada]);
    expect(rows[0]).toMatchObject({
      CustomerName: "Bob 100%_Sure",
      Advisors: [{ Name: "Sam" }, { AdvisorId: kimId, Name: "Kim" }],
      // Their own first words: not "Talk to an advisor", picked from the bot's menu.
      FirstLine: "I want a refund",
    });
    expect(rows[1]).toMatchObject({ CustomerName: "Ada Lovelace", Advisors: [{ Name: "Sam" }] });
    expect(Date.parse(rows[0]!.EndedAt)).toBeGreaterThanOrEqual(Date.parse(rows[1]!.EndedAt));
    // A live chat is not history.
    const live = await widgetCustomer(server, null);
    opened.push(live);
    await live.say("Talk to an advisor");
    await heldBy(sam, live);
    expect((await listed()).map((r) => r.ContactId)).not.toContain(live.contactId);
  });

  it("names every advisor who took part, for the advisor filter", async () => {
    const r = await http<{ Advisors: { AdvisorId: string; Name: string }[] }>(
      server.url + HistoryApiPath.Advisors,
      { headers: { authorization: `Bearer ${sam.token}` } },
    );
    expect(r.status).toBe(200);
    expect(r.body.Advisors.map((a) => a.Name)).toEqual(["Kim", "Sam"]);
    expect(r.body.Advisors[0]!.AdvisorId).toBe(kimId);
    const stranger = await http(server.url + HistoryApiPath.Advisors);
    expect(stranger.status).toBe(403);
  });

  it("filters by advisor, by visitor (any case, taken literally) and by when it started", async () => {
    expect((await listed(`?AdvisorId=${kimId}`)).map((r) => r.ContactId)).toEqual([ids.bob]);
    expect((await listed("?AdvisorId=nobody")).length).toBe(0);
    expect((await listed("?Visitor=lovelace")).map((r) => r.ContactId)).toEqual([ids.ada]);
    expect(
      (await listed(`?Visitor=${encodeURIComponent("100%_")}`)).map((r) => r.ContactId),
    ).toEqual([ids.bob]);
    expect((await listed(`?Visitor=${encodeURIComponent("%")}`)).map((r) => r.ContactId)).toEqual([
      ids.bob,
    ]);
    const all = await listed();
    const adaStart = all.find((r) => r.ContactId === ids.ada)!.StartedAt;
    const bobStart = all.find((r) => r.ContactId === ids.bob)!.StartedAt;
    expect((await listed(`?From=${bobStart}`)).map((r) => r.ContactId)).toEqual([ids.bob]);
    expect((await listed(`?To=${bobStart}`)).map((r) => r.ContactId)).toEqual([ids.ada]);
    expect((await listed(`?From=${adaStart}&To=2999-01-01T00:00:00Z`)).length).toBe(2);
  });

  it("Search conversations: whole words in messages and notes, any case, phrases and exclusions, with the snippet", async () => {
    const found = async (search: string) =>
      (await listed(`?Search=${encodeURIComponent(search)}`)).map((r) => r.ContactId);
    expect(await found("parcel")).toEqual([ids.ada]);
    expect(await found("PARCEL rain")).toEqual([ids.ada]);
    expect(await found("vip")).toEqual([ids.ada]); // in a note
    expect(await found("refund")).toEqual([ids.bob]);
    expect(await found('"want a refund"')).toEqual([ids.bob]);
    expect(await found('"refund want"')).toEqual([]);
    expect(await found("parcel -rain")).toEqual([]);
    expect(await found("parcel or refund")).toEqual([ids.bob, ids.ada]);
    expect(await found("parc")).toEqual([]); // whole words
    expect(await found("!!! ---")).toEqual([]);
    const [ada] = await listed("?Search=rain");
    expect(ada!.Snippet).toMatch(/<mark>rain<\/mark>/);
    expect((await listed(`?Search=refund&AdvisorId=${kimId}`)).length).toBe(1);
    expect((await listed("?Search=parcel&Visitor=bob")).length).toBe(0);
  });

  it("pages with Next: each row once, none skipped", async () => {
    const db = server.built.deps.db;
    const base = Date.parse("2020-01-01T00:00:00Z");
    for (let i = 0; i < 120; i++) {
      const at = new Date(base + Math.floor(i / 3) * 1000).toISOString(); // ties on EndedAt
      await db.query(
        `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
         VALUES ($1, $1, 'i', 'f', 'ended', $2, $2)`,
        [`paged-${String(i).padStart(3, "0")}`, at],
      );
    }
    expect(await catchUp(db)).toBe(120);
    const seen: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const r = await list(sam, `?To=2021-01-01T00:00:00Z${next ? `&Before=${next}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.Conversations.map((c) => c.ContactId));
      next = r.body.Next;
      pages++;
    } while (next);
    expect(pages).toBe(3);
    expect(seen.length).toBe(120);
    expect(new Set(seen).size).toBe(120);
    expect(seen[0]).toBe("paged-119");
    expect(seen.at(-1)).toBe("paged-000");
  });

  it("the catch-up builds the rows a crash left out, once", async () => {
    const db = server.built.deps.db;
    await db.query("DELETE FROM conversations WHERE contact_id = $1", [ids.ada]);
    expect((await listed()).map((r) => r.ContactId)).not.toContain(ids.ada);
    expect(await catchUp(db)).toBe(1);
    expect(await catchUp(db)).toBe(0);
    expect((await listed("?Visitor=Ada")).map((r) => r.FirstLine)).toEqual([
      "Where is my parcel? It was left in the rain",
    ]);
  });

  it("refuses participant tokens and strangers (403) and bad filters (400)", async () => {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    for (const token of [c.participantToken, c.connectionToken, "nobody", null])
      expect((await list(token)).status).toBe(403);
    for (const query of [
      "?From=yesterday",
      "?To=2026-13-45T00:00:00Z",
      "?From=12",
      "?Before=not-a-cursor",
      `?Before=${Buffer.from("x|y|z").toString("base64url")}`,
      `?Visitor=${"x".repeat(101)}`,
      `?Search=${"x".repeat(201)}`,
    ]) {
      const r = await list(sam, query);
      expect(r.status, query).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
  });
});
