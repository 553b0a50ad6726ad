/**
 * Issue 60 (1b), the visitor's earlier conversations and a conversation's read-only
 * transcript: a visitor known by their verified jwt subject finds their ended chats (newest
 * first, with the first advisor and their first words, not the bot's echoes); nobody else's,
 * and none for an unsigned visitor. Who may read follows chat-access.ts; bad input is a 400.
 */
import {
  AgentApiPath,
  ContentType,
  HistoryApiPath,
  TRANSCRIPT_PAGE_SIZE,
  agentContactPath,
  type ConversationTranscriptResponse,
  type EarlierConversationsResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_JWT_SECRET } from "../../src/demo/demo-jwt.js";
import { signJwt } from "../../src/gateway/jwt.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  heldBy,
  http,
  isPicker,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const ADMIN_TOKEN = "earlier-admin-token-0123456789abcdef";
const jwtOf = (sub: string) => signJwt({ sub, attributes: {} }, DEMO_JWT_SECRET);

describe.each(ENGINES)("earlier conversations and read-only transcripts (%s)", (engine) => {
  let server: TestServer;
  let holder: Advisor;
  let colleague: Advisor;
  const opened: Customer[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    holder = await signIn(server);
    expect((await holder.setAvailability("Available")).status).toBe(200);
    colleague = await addAdvisor(server, ADMIN_TOKEN, "colleague", "Kim");
  });
  afterEach(() => {
    for (const c of opened.splice(0)) c.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A visitor (signed as `sub`, or not) who echoes the bot as the widget does and asks for an advisor, accepted by `holder`. */
  async function heldChat(sub: string | null, words?: string) {
    const c = await widgetCustomer(server, null, sub ? { Jwt: jwtOf(sub) } : {});
    opened.push(c);
    await c.waitFor(isPicker);
    await c.echoBot();
    await c.say("Talk to an advisor");
    const held = await heldBy(holder, c);
    if (words) await c.say(words);
    return held;
  }

  const end = async (contactId: string) =>
    expect((await holder.request(agentContactPath(AgentApiPath.End, contactId))).status).toBe(200);

  const earlier = (who: { token: string } | null, contactId: string) =>
    http<EarlierConversationsResponse & { message?: string }>(
      server.url + agentContactPath(HistoryApiPath.Earlier, contactId),
      { headers: who ? { authorization: `Bearer ${who.token}` } : {} },
    );
  const transcript = (who: { token: string } | null, contactId: string, query = "") =>
    http<ConversationTranscriptResponse & { message?: string }>(
      server.url + agentContactPath(HistoryApiPath.Transcript, contactId) + query,
      { headers: who ? { authorization: `Bearer ${who.token}` } : {} },
    );

  it("lists the visitor's ended chats, newest first, with advisor and first words; nobody else's", async () => {
    const first = await heldChat("ann", "My parcel is late");
    await end(first.customer.contactId);
    const second = await heldChat("ann", "Where is my refund?");
    await end(second.customer.contactId);
    const bob = await heldChat("bob", "Hello");
    await end(bob.customer.contactId);
    const now = await heldChat("ann");

    const r = await earlier(holder, now.customer.contactId);
    expect(r.status).toBe(200);
    expect(r.body.Conversations.map((c) => c.ContactId)).toEqual([
      second.customer.contactId,
      first.customer.contactId,
    ]);
    expect(r.body.Conversations[1]).toMatchObject({
      AdvisorName: "Sam",
      FirstLine: "My parcel is late", // not "Talk to an advisor", picked from the bot's menu
    });
    const [c] = r.body.Conversations;
    expect(Date.parse(c!.EndedAt)).toBeGreaterThanOrEqual(Date.parse(c!.StartedAt));

    // An unsigned visitor is nobody known: no earlier chats, though others' exist.
    const anonymous = await heldChat(null);
    const none = await earlier(holder, anonymous.customer.contactId);
    expect(none.status).toBe(200);
    expect(none.body.Conversations).toEqual([]);

    // Opening one read-only: any advisor reads an ended chat, with the visitor's words.
    const read = await transcript(colleague, first.customer.contactId);
    expect(read.status).toBe(200);
    expect(read.body.Items.some((i) => i.Content === "My parcel is late")).toBe(true);
    expect(read.body.Items.at(-1)?.ContentType).toBe(ContentType.CHAT_ENDED);
    expect(read.body).not.toHaveProperty("NextAfter");

    // A chat in which the visitor only picked from the menu: the choice is its first line.
    await end(now.customer.contactId);
    const after = await heldChat("ann");
    const listed = await earlier(holder, after.customer.contactId);
    expect(listed.body.Conversations[0]).toMatchObject({
      ContactId: now.customer.contactId,
      FirstLine: "Talk to an advisor",
    });
  });

  it("refuses another advisor a live chat, participant tokens and strangers", async () => {
    const { customer, accepted } = await heldChat("carol");
    for (const read of [earlier, transcript]) {
      expect((await read(holder, customer.contactId)).status).toBe(200);
      const other = await read(colleague, customer.contactId);
      expect(other.status).toBe(404);
      expect(other.body.message).toMatch(/not one of your chats/);
      for (const token of [
        null,
        { token: customer.connectionToken },
        { token: customer.participantToken },
        { token: accepted.ParticipantToken },
      ]) {
        const r = await read(token, customer.contactId);
        expect(r.status).toBe(403);
        expect(r.body).not.toHaveProperty("Items");
        expect(r.body).not.toHaveProperty("Conversations");
      }
    }
  });

  it("pages a long transcript, and says what is wrong with a bad page", async () => {
    const { customer } = await heldChat("dan");
    const participants = await server.built.deps.centre.getParticipants(customer.contactId);
    const visitorId = participants.find((p) => p.role === "CUSTOMER")!.participantId;
    for (let i = 0; i < TRANSCRIPT_PAGE_SIZE; i++)
      await server.built.deps.centre.postMessage(customer.contactId, visitorId, {
        contentType: ContentType.TEXT_PLAIN,
        content: `line ${i}`,
      });
    const first = await transcript(holder, customer.contactId);
    expect(first.status).toBe(200);
    expect(first.body.Items).toHaveLength(TRANSCRIPT_PAGE_SIZE);
    expect(first.body.NextAfter).toBeGreaterThan(0);
    const next = await transcript(holder, customer.contactId, `?after=${first.body.NextAfter}`);
    expect(next.status).toBe(200);
    expect(next.body).not.toHaveProperty("NextAfter");
    const ids = [...first.body.Items, ...next.body.Items].map((i) => i.Id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(next.body.Items.at(-1)?.Content).toBe(`line ${TRANSCRIPT_PAGE_SIZE - 1}`);

    for (const query of ["?after=-1", "?after=abc", "?after=1.5", "?after=99999999999"]) {
      const r = await transcript(holder, customer.contactId, query);
      expect(r.status, query).toBe(400);
      expect(r.body.message).toMatch(/querystring/);
    }
  });
});
