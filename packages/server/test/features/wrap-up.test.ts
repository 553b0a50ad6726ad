/**
 * Issue 60 (5b), tags and wrap-up: the holder tags a live chat, anyone tags an ended one; tags
 * are normal words (trimmed, lower case, once each), the team's suggested by prefix, the most
 * used first; the History lists and filters by them. The advisor who held the chat last writes
 * one wrap-up once it has ended, which stands among its notes and is searched. Every other
 * caller and every bad body is refused.
 */
import {
  AgentApiPath,
  ContentType,
  HistoryApiPath,
  NotesApiPath,
  WrapUpApiPath,
  agentContactPath,
  type HistoryResponse,
  type Note,
  type NotesResponse,
  type TagSuggestionsResponse,
  type TagsResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const ADMIN_TOKEN = "wrapup-admin-token-0123456789abcdef012";

describe.each(ENGINES)("tags and wrap-up (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    expect((await sam.setAvailability("Available")).status).toBe(200);
  }, 120_000);
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  const auth = (who: { token: string } | string | null): Record<string, string> =>
    who === null ? {} : { authorization: `Bearer ${typeof who === "string" ? who : who.token}` };
  const tagsOf = (who: { token: string } | string | null, id: string) =>
    http<TagsResponse & { message?: string }>(
      server.url + agentContactPath(WrapUpApiPath.Tags, id),
      {
        headers: auth(who),
      },
    );
  const setTags = (who: { token: string } | string | null, id: string, body: unknown) =>
    http<TagsResponse & { message?: string }>(
      server.url + agentContactPath(WrapUpApiPath.Tags, id),
      {
        method: "PUT",
        body,
        headers: auth(who),
      },
    );
  const wrapUp = (who: { token: string } | string | null, id: string, body: unknown) =>
    http<Note & { message?: string }>(server.url + agentContactPath(WrapUpApiPath.WrapUp, id), {
      method: "PUT",
      body,
      headers: auth(who),
    });
  const history = async (query: string) =>
    (
      await http<HistoryResponse>(server.url + HistoryApiPath.List + query, {
        headers: auth(kim),
      })
    ).body.Conversations;

  async function held(): Promise<Customer> {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    await heldBy(sam, c);
    return c;
  }
  async function ended(c: Customer) {
    expect((await sam.request(agentContactPath(AgentApiPath.End, c.contactId))).status).toBe(200);
    await c.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED, 15_000);
    await vi.waitFor(
      async () => expect((await history("")).map((r) => r.ContactId)).toContain(c.contactId),
      { timeout: 15_000 },
    );
  }

  it("tags: the holder sets them on a live chat, as normal words once each; anyone once it ended; the History lists and filters by them", async () => {
    const c = await held();
    const r = await setTags(sam, c.contactId, { Tags: ["  Refund ", "refund", "Late  Parcel"] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ContactId: c.contactId, Tags: ["late parcel", "refund"] });
    expect((await tagsOf(sam, c.contactId)).body.Tags).toEqual(["late parcel", "refund"]);
    expect((await tagsOf(kim, c.contactId)).status).toBe(404); // another advisor, live chat
    expect((await setTags(kim, c.contactId, { Tags: ["x"] })).status).toBe(404);
    await ended(c);
    const kims = await setTags(kim, c.contactId, { Tags: ["refund", "vip"] });
    expect(kims.body.Tags).toEqual(["refund", "vip"]);
    const [row] = await history("?Tag=VIP");
    expect(row).toMatchObject({ ContactId: c.contactId, Tags: ["refund", "vip"] });
    expect((await history("?Tag=late%20parcel")).map((x) => x.ContactId)).not.toContain(
      c.contactId,
    );
  });

  it("suggests the team's tags by prefix, the most used first", async () => {
    for (const tags of [["delivery", "damaged"], ["delivery"], ["dispute"]]) {
      const c = await held();
      await setTags(sam, c.contactId, { Tags: tags });
      await ended(c);
    }
    const r = await http<TagSuggestionsResponse>(
      server.url + WrapUpApiPath.Suggestions + "?Prefix=D",
      {
        headers: auth(kim),
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.Tags.map((t) => t.Tag)).toEqual(["delivery", "damaged", "dispute"]);
    expect(r.body.Tags[0]!.Uses).toBe(2);
    const literal = await http<TagSuggestionsResponse>(
      server.url + WrapUpApiPath.Suggestions + "?Prefix=%25",
      { headers: auth(kim) },
    );
    expect(literal.body.Tags).toEqual([]);
    expect((await http(server.url + WrapUpApiPath.Suggestions)).status).toBe(403);
  });

  it("wrap-up: once ended, by the advisor who held it last; one per conversation; among its notes and searched", async () => {
    const c = await held();
    expect((await wrapUp(sam, c.contactId, { Body: "Too early" })).status).toBe(409);
    await ended(c);
    expect((await wrapUp(kim, c.contactId, { Body: "Not mine" })).status).toBe(403);
    const first = await wrapUp(sam, c.contactId, { Body: "Refund issued" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ WrapUp: true, Body: "Refund issued", AdvisorName: "Sam" });
    const second = await wrapUp(sam, c.contactId, { Body: "Refund issued, voucher sent" });
    expect(second.status).toBe(200);
    const notes = await http<NotesResponse>(
      server.url + agentContactPath(NotesApiPath.Notes, c.contactId),
      { headers: auth(kim) },
    );
    expect(notes.body.Notes.map((n) => [n.Body, n.WrapUp])).toEqual([
      ["Refund issued, voucher sent", true],
    ]);
    expect((await history("?Search=voucher")).map((r) => r.ContactId)).toEqual([c.contactId]);
  });

  it("refuses participant tokens and strangers (403), and bad tags and wrap-ups (400)", async () => {
    const c = await held();
    for (const token of [c.participantToken, c.connectionToken, "nobody", null]) {
      expect((await tagsOf(token, c.contactId)).status).toBe(403);
      expect((await setTags(token, c.contactId, { Tags: ["x"] })).status).toBe(403);
      expect((await wrapUp(token, c.contactId, { Body: "x" })).status).toBe(403);
    }
    const bad: unknown[] = [
      {},
      { Tags: "refund" },
      { Tags: [""] },
      { Tags: ["   "] },
      { Tags: ["x".repeat(41)] },
      { Tags: ["a\u0007b"] },
      { Tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { Tags: [7] },
    ];
    for (const body of bad) {
      const r = await setTags(sam, c.contactId, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
    await ended(c);
    for (const body of [{}, { Body: "" }, { Body: "   " }, { Body: "x".repeat(4001) }]) {
      expect((await wrapUp(sam, c.contactId, body)).status, JSON.stringify(body).slice(0, 30)).toBe(
        400,
      );
    }
    expect((await tagsOf(sam, "no-such-contact")).status).toBe(404);
  });
});
