/**
 * Issue 60 (2), the notes routes: the advisor holding a live chat writes notes and reads
 * them; once the chat ended any advisor reads them and nobody writes. Another advisor, a
 * waiting chat, participant tokens and strangers are refused; bad bodies are a clear 400; a
 * retried write is one note; a chat keeps at most MAX_NOTES_PER_CONTACT; `@username` tells
 * that advisor on their events stream, and nobody else.
 */
import { randomUUID } from "node:crypto";
import {
  AgentApiPath,
  NOTE_MAX,
  NotesApiPath,
  agentContactPath,
  type Note,
  type NotesResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertNote } from "../../src/notes/notes-repo.js";
import { MAX_NOTES_PER_CONTACT } from "../../src/notes/routes.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  eventStream,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const ADMIN_TOKEN = "notes-admin-token-0123456789abcdef012";
const BOUND = { timeout: 15_000 };

describe.each(ENGINES)("internal notes (%s)", (engine) => {
  let server: TestServer;
  let holder: Advisor;
  let colleague: Advisor;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    holder = await signIn(server);
    expect((await holder.setAvailability("Available")).status).toBe(200);
    colleague = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
  });
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function waiting(): Promise<Customer> {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    return c;
  }

  const held = async () => heldBy(holder, await waiting());

  const notesPath = (contactId: string) => agentContactPath(NotesApiPath.Notes, contactId);
  const write = (who: { token: string } | null, contactId: string, body: unknown) =>
    http<Note & { message?: string }>(server.url + notesPath(contactId), {
      body,
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });
  const read = (who: { token: string } | null, contactId: string) =>
    http<NotesResponse & { message?: string }>(server.url + notesPath(contactId), {
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });

  it("the holder writes and reads them, oldest first; a retried write is one note", async () => {
    const { customer } = await held();
    const first = await write(holder, customer.contactId, {
      Body: "Checked the order",
      ClientToken: "t1",
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ContactId: customer.contactId,
      AdvisorName: "Sam",
      Body: "Checked the order",
      Mentions: [],
    });
    const again = await write(holder, customer.contactId, {
      Body: "Checked the order",
      ClientToken: "t1",
    });
    expect(again.body.NoteId).toBe(first.body.NoteId);
    expect((await write(holder, customer.contactId, { Body: "Refund sent" })).status).toBe(200);
    const r = await read(holder, customer.contactId);
    expect(r.status).toBe(200);
    expect(r.body.Notes.map((n) => n.Body)).toEqual(["Checked the order", "Refund sent"]);
  });

  it("refuses another advisor, a waiting chat, participant tokens and strangers", async () => {
    const { customer, accepted } = await held();
    await write(holder, customer.contactId, { Body: "private" });
    for (const r of [
      await write(colleague, customer.contactId, { Body: "mine too" }),
      await read(colleague, customer.contactId),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.message).toMatch(/not one of your chats/);
    }
    const queued = await waiting();
    expect((await write(holder, queued.contactId, { Body: "early" })).status).toBe(404);
    expect((await read(holder, queued.contactId)).status).toBe(404);
    for (const token of [
      null,
      { token: "not-a-session" },
      { token: customer.participantToken },
      { token: customer.connectionToken },
      { token: accepted.ParticipantToken },
    ]) {
      expect((await write(token, customer.contactId, { Body: "x" })).status).toBe(403);
      const r = await read(token, customer.contactId);
      expect(r.status).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain("private");
    }
  });

  it("says what is wrong with a bad note (400), and keeps at most the cap a chat", async () => {
    const { customer } = await held();
    const cases: [unknown, RegExp][] = [
      [{}, /Body/],
      [{ Body: "" }, /Body/],
      [{ Body: "   \n " }, /some text/],
      [{ Body: "x".repeat(NOTE_MAX + 1) }, /Body/],
      [{ Body: 5 }, /Body/],
      [{ Body: "ok", ClientToken: "" }, /ClientToken/],
    ];
    for (const [body, message] of cases) {
      const r = await write(holder, customer.contactId, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect((await read(holder, customer.contactId)).body.Notes).toEqual([]);

    for (let i = 0; i < MAX_NOTES_PER_CONTACT; i++)
      await insertNote(server.built.deps.db, {
        noteId: randomUUID(),
        contactId: customer.contactId,
        advisorId: "someone",
        advisorName: "Someone",
        body: `n${i}`,
        mentions: [],
        clientToken: null,
        createdAt: new Date().toISOString(),
      });
    const full = await write(holder, customer.contactId, { Body: "one more" });
    expect(full.status).toBe(409);
    expect(full.body.message).toMatch(/the most it keeps/);
  });

  it("once the chat ended, any advisor reads its notes and nobody writes", async () => {
    const { customer } = await held();
    expect((await write(holder, customer.contactId, { Body: "Wrap: refunded" })).status).toBe(200);
    const end = await holder.request(agentContactPath(AgentApiPath.End, customer.contactId));
    expect(end.status).toBe(200);
    await expect
      .poll(async () => (await read(colleague, customer.contactId)).status, BOUND)
      .toBe(200);
    expect((await read(colleague, customer.contactId)).body.Notes.map((n) => n.Body)).toEqual([
      "Wrap: refunded",
    ]);
    const late = await write(holder, customer.contactId, { Body: "too late" });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/has ended/);
  });

  it("tells a mentioned advisor on their events stream, nobody for an unknown name or oneself", async () => {
    const stream = await eventStream(server.url, colleague, opened);

    const { customer } = await held();
    const quiet = await write(holder, customer.contactId, { Body: "ask @nobody or @demo" });
    expect(quiet.body.Mentions).toEqual([]);
    const told = await write(holder, customer.contactId, {
      Body: "@kim, can you check the refund?",
    });
    expect(told.body.Mentions).toEqual(["kim"]);
    await expect.poll(() => stream.text.includes("event: mention"), BOUND).toBe(true);
    const frames = stream.text.split("\n\n").filter((f) => f.startsWith("event: mention"));
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0]!.split("data: ")[1]!)).toEqual({
      ContactId: customer.contactId,
      NoteId: told.body.NoteId,
      From: "Sam",
      Excerpt: "@kim, can you check the refund?",
    });
  });
});
