/**
 * Issue 60: a transfer that fails half-way, and claims nobody joined, on both stores. A
 * hand-over whose announcement fails (the store away) puts the chat back in its queue, note
 * kept, nothing counted against the target; a claim no participant ever joined (its process
 * died) is put back by the sweep once stale, a fresh one left alone; a transfer to the queue is
 * announced while the chat is still held (an advisor accepting it never hears a transfer meant
 * for the one before); a requeue by its holder does not take a chat handed on meanwhile.
 */
import {
  AgentApiPath,
  ContentType,
  NotesApiPath,
  ParticipantPath,
  TransferApiPath,
  agentContactPath,
  type NotesResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLAIM_STALE_MS, sweepStaleClaims } from "../../src/agents/claim-sweep.js";
import { requeueContact } from "../../src/agents/queue-repo.js";
import type { PostInput } from "../../src/contact-centre/types.js";
import { Errors } from "../../src/errors.js";
import { ENGINES } from "../support/databases.js";
import { call } from "../support/client.js";
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

const ADMIN_TOKEN = "transfer-undo-admin-token-0123456789abc";
const MANY_CHATS = { START_CHAT_BURST: "1000", START_CHAT_PER_MINUTE: "60000" };
const BOUND = { timeout: 15_000, interval: 50 };

describe.each(ENGINES)("a transfer that fails half-way, and stale claims (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  const ids = new Map<Advisor, string>();
  const opened: { close(): void }[] = [];
  const restore: (() => void)[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN, ...MANY_CHATS });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    const [samId, kimId] = await available(sam, kim);
    ids.set(sam, samId).set(kim, kimId);
  }, 120_000);
  afterEach(() => {
    for (const r of restore.splice(0)) r();
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.built.deps.db;
  const centre = () => server.built.deps.centre;
  async function held(by: Advisor = sam) {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    return heldBy(by, c);
  }
  const transfer = (contactId: string, body: unknown) =>
    http<{ message?: string }>(server.url + agentContactPath(TransferApiPath.Transfer, contactId), {
      body,
      headers: { authorization: `Bearer ${sam.token}` },
    });
  const row = async (contactId: string) =>
    (
      await db().query<{ status: string; advisor_id: string | null }>(
        "SELECT status, advisor_id FROM agent_contacts WHERE contact_id = $1",
        [contactId],
      )
    )[0]!;
  const queued = async () =>
    (
      await kim.request<{ Contacts: { ContactId: string }[] }>(AgentApiPath.Queue)
    ).body.Contacts.map((c) => c.ContactId);
  /** Runs `when` instead of posting the transfer's transfer.succeeded, once. */
  function onAnnounce(when: (post: () => Promise<unknown>, contactId: string) => Promise<unknown>) {
    const c = centre();
    const original = c.postEvent.bind(c);
    let armed = true;
    c.postEvent = async (contactId: string, participantId: string, input: PostInput) => {
      if (armed && input.contentType === ContentType.TRANSFER_SUCCEEDED) {
        armed = false;
        return (await when(() => original(contactId, participantId, input), contactId)) as never;
      }
      return original(contactId, participantId, input);
    };
    restore.push(() => {
      c.postEvent = original;
    });
  }

  it("the announcement fails (the store away): the chat waits in its queue with the note, Kim's limit untouched, Kim can take it", async () => {
    const { customer, accepted } = await held();
    const id = customer.contactId;
    onAnnounce(async () => {
      throw Errors.internal("the store is away");
    });
    const moved = await transfer(id, { AdvisorId: ids.get(kim), Note: "order 1234, a refund" });
    expect(moved.status).toBe(500);
    expect(await row(id)).toEqual({ status: "waiting", advisor_id: null });
    expect(await queued()).toContain(id);
    // Sam's participant left: his token is refused.
    await vi.waitFor(async () => {
      const stale = await call(
        server.url,
        ParticipantPath.CreateParticipantConnection,
        accepted.ParticipantToken,
        { Type: ["CONNECTION_CREDENTIALS"] },
      );
      expect(stale.status).toBe(403);
    }, BOUND);
    const taken = await kim.accept(id);
    expect(taken.status).toBe(200);
    const notes = await http<NotesResponse>(server.url + agentContactPath(NotesApiPath.Notes, id), {
      headers: { authorization: `Bearer ${kim.token}` },
    });
    expect(notes.body.Notes.map((n) => n.Body)).toEqual([
      "Transferred to Kim: order 1234, a refund",
    ]);
    await customer.say("still there?");
    expect(await row(id)).toEqual({ status: "active", advisor_id: ids.get(kim) });
    await centre().endContact(id);
  });

  it("a claim nobody joined is put back in its queue once stale; a fresh one is left alone", async () => {
    const stale = await held();
    const fresh = await held();
    await centre()
      .endContact(stale.customer.contactId)
      .catch(() => {});
    // Two chats claimed for Kim by a process that died before her participant joined.
    const claim = async (contactId: string, at: number) =>
      db().query(
        `UPDATE agent_contacts SET status = 'accepting', advisor_id = $2, participant_id = NULL,
           accepted_at = $3 WHERE contact_id = $1`,
        [contactId, ids.get(kim), new Date(at).toISOString()],
      );
    const lost = await held();
    const now = Date.now();
    await claim(lost.customer.contactId, now - CLAIM_STALE_MS - 1_000);
    await claim(fresh.customer.contactId, now - CLAIM_STALE_MS + 10_000);
    const released: string[] = [];
    const swept = await sweepStaleClaims({
      db: db(),
      clock: { now: () => now },
      released: async (contactId, advisorId) => {
        released.push(`${contactId} ${advisorId}`);
      },
    });
    expect(swept).toBe(1);
    expect(released).toEqual([`${lost.customer.contactId} ${ids.get(kim)}`]);
    expect(await row(lost.customer.contactId)).toEqual({ status: "waiting", advisor_id: null });
    expect(await row(fresh.customer.contactId)).toEqual({
      status: "accepting",
      advisor_id: ids.get(kim),
    });
    expect(await row(stale.customer.contactId)).toMatchObject({ status: "ended" });
    await vi.waitFor(async () => expect(await queued()).toContain(lost.customer.contactId), BOUND);
    for (const c of [lost, fresh]) await centre().endContact(c.customer.contactId);
  });

  it("to the queue: announced while Sam still holds it, then waiting", async () => {
    const { customer } = await held();
    const id = customer.contactId;
    const seen: unknown[] = [];
    onAnnounce(async (post) => {
      seen.push(await row(id));
      return post();
    });
    expect((await transfer(id, { Queue: true })).status).toBe(200);
    expect(seen).toEqual([{ status: "active", advisor_id: ids.get(sam) }]);
    expect(await row(id)).toEqual({ status: "waiting", advisor_id: null });
    await centre().endContact(id);
  });

  it("a requeue by its holder does not take a chat handed on meanwhile", async () => {
    const { customer } = await held(kim);
    const id = customer.contactId;
    const at = new Date().toISOString();
    expect(await requeueContact(db(), id, at, ids.get(sam))).toBeNull();
    expect(await row(id)).toEqual({ status: "active", advisor_id: ids.get(kim) });
    expect(await requeueContact(db(), id, at, ids.get(kim))).toMatchObject({
      advisorId: ids.get(kim),
    });
    expect(await row(id)).toEqual({ status: "waiting", advisor_id: null });
    await centre().endContact(id);
  });
});
