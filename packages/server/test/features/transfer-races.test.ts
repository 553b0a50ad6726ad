/**
 * Issue 60 (4), transfers under races, on both stores: two transfers of one chat at once, a
 * transfer racing the visitor's end, the target's sign-out or disabling, an accept of the
 * target at their limit, and an accept of the chat handed back to the queue. Whatever the
 * order, one of them wins, nothing answers 5xx, and the chat is left held by one advisor
 * (active) or waiting in its queue, or ended with the visitor: never 'accepting' with nobody
 * joining. Also who may ask: a disabled or signed-out advisor, a waiting or ended chat.
 */
import {
  AgentApiPath,
  ContentType,
  NotesApiPath,
  ParticipantPath,
  TransferApiPath,
  agentContactPath,
  type ActiveChat,
  type NotesResponse,
  type TransferTargetsResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PostInput } from "../../src/contact-centre/types.js";
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

const ADMIN_TOKEN = "transfer-races-admin-token-0123456789ab";
/** Many chats from this one address: the start-chat limit (20 a minute) is not under test. */
const MANY_CHATS = { START_CHAT_BURST: "1000", START_CHAT_PER_MINUTE: "60000" };
/** Longer than two runs of the revocation sweep (REVOCATION_SWEEP_MS, 2 s). */
const SWEPT_MS = 4_500;
const BOUND = { timeout: 15_000, interval: 50 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)("transfer races (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  let lee: Advisor;
  const ids = new Map<Advisor, string>();
  const opened: { close(): void }[] = [];
  const restore: (() => void)[] = [];
  let added = 0;

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN, ...MANY_CHATS });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    lee = await addAdvisor(server, ADMIN_TOKEN, "lee", "Lee");
    const [samId, kimId, leeId] = await available(sam, kim, lee);
    ids.set(sam, samId).set(kim, kimId).set(lee, leeId);
  }, 120_000);
  afterEach(async () => {
    for (const r of restore.splice(0)) r();
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A new advisor (Available, signed in) with `max` chats at once. */
  async function newAdvisor(name: string, max?: number) {
    const username = `${name.toLowerCase()}${++added}`;
    const r = await adminPost<{ Password: string }>(server, ADMIN_TOKEN, "/admin-api/advisors", {
      Username: username,
      Name: name,
      ...(max ? { MaxConcurrentChats: max } : {}),
    });
    expect(r.status).toBe(200);
    const a = await signIn(server, username, r.body.Password);
    ids.set(a, (await available(a))[0]);
    return { advisor: a, username, id: ids.get(a)! };
  }

  /** A visitor who asked for an advisor, waiting in the queue. */
  async function waiting(): Promise<Customer> {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    await vi.waitFor(async () => expect(await queued()).toContain(c.contactId), BOUND);
    return c;
  }
  async function held(by: Advisor = sam) {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    return heldBy(by, c);
  }

  const as = (who: { token: string }) => ({ authorization: `Bearer ${who.token}` });
  const transfer = (who: { token: string }, contactId: string, body: unknown) =>
    http<{ message?: string }>(server.url + agentContactPath(TransferApiPath.Transfer, contactId), {
      body,
      headers: as(who),
    });
  const targets = (who: { token: string }, contactId: string) =>
    http<TransferTargetsResponse>(
      server.url + agentContactPath(TransferApiPath.Targets, contactId),
      { headers: as(who) },
    );
  const chatsOf = async (who: Advisor) =>
    (await who.request<{ Chats: ActiveChat[] }>(AgentApiPath.Chats)).body.Chats.map(
      (c) => c.ContactId,
    );
  const queued = async () =>
    (
      await sam.request<{ Contacts: { ContactId: string }[] }>(AgentApiPath.Queue)
    ).body.Contacts.map((c) => c.ContactId);
  const db = () => server.built.deps.db;
  const row = async (contactId: string) =>
    (
      await db().query<{ status: string; advisor_id: string | null }>(
        "SELECT status, advisor_id FROM agent_contacts WHERE contact_id = $1",
        [contactId],
      )
    )[0]!;
  /** Chats the advisor holds or is taking (what their limit counts). */
  const load = async (advisorId: string) =>
    Number(
      (
        await db().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM agent_contacts
           WHERE advisor_id = $1 AND status IN ('accepting', 'active')`,
          [advisorId],
        )
      )[0]!.n,
    );
  const accepting = async () =>
    Number(
      (
        await db().query<{ n: number }>(
          "SELECT count(*)::int AS n FROM agent_contacts WHERE status = 'accepting'",
        )
      )[0]!.n,
    );
  const end = (contactId: string) => server.built.deps.centre.endContact(contactId);

  /** Runs `before` once, just before the transfer's transfer.succeeded is posted. */
  function beforeAnnounce(before: (contactId: string) => Promise<void>) {
    const centre = server.built.deps.centre;
    const original = centre.postEvent.bind(centre);
    let armed = true;
    centre.postEvent = async (contactId: string, participantId: string, input: PostInput) => {
      if (armed && input.contentType === ContentType.TRANSFER_SUCCEEDED) {
        armed = false;
        await before(contactId);
      }
      return original(contactId, participantId, input);
    };
    restore.push(() => {
      centre.postEvent = original;
    });
  }

  it("two transfers of one chat at once, to Kim and to Lee: one wins, the other is refused and takes nothing", async () => {
    for (let round = 0; round < 3; round++) {
      const { customer, accepted } = await held();
      const id = customer.contactId;
      const [toKim, toLee] = await Promise.all([
        transfer(sam, id, { AdvisorId: ids.get(kim) }),
        transfer(sam, id, { AdvisorId: ids.get(lee) }),
      ]);
      const statuses = [toKim.status, toLee.status].sort();
      expect(statuses[0], JSON.stringify([toKim.body, toLee.body])).toBe(200);
      expect([404, 409]).toContain(statuses[1]);
      const [winner, loser] = toKim.status === 200 ? [kim, lee] : [lee, kim];
      await vi.waitFor(async () => expect(await chatsOf(winner)).toContain(id), BOUND);
      expect(await row(id)).toEqual({ status: "active", advisor_id: ids.get(winner) });
      expect(await chatsOf(loser)).not.toContain(id);
      expect(await load(ids.get(loser)!)).toBe(0);
      // The visitor saw one transfer and one advisor join after Sam.
      const name = winner === kim ? "Kim" : "Lee";
      await customer.waitFor(
        (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.DisplayName === name,
        15_000,
      );
      const items = customer.items();
      expect(items.filter((i) => i.ContentType === ContentType.TRANSFER_SUCCEEDED)).toHaveLength(1);
      const joined = items.filter(
        (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
      );
      expect(joined.map((i) => i.DisplayName)).toEqual(["Sam", name]);
      const stale = await call(
        server.url,
        ParticipantPath.CreateParticipantConnection,
        accepted.ParticipantToken,
        {
          Type: ["CONNECTION_CREDENTIALS"],
        },
      );
      expect(stale.status).toBe(403);
      await end(id);
    }
    expect(await accepting()).toBe(0);
  });

  it("to Kim and to the queue at once: never both, and the chat is Kim's or waiting, Sam's participant gone", async () => {
    for (let round = 0; round < 3; round++) {
      const { customer, accepted } = await held();
      const id = customer.contactId;
      const [toKim, toQueue] = await Promise.all([
        transfer(sam, id, { AdvisorId: ids.get(kim) }),
        transfer(sam, id, { Queue: true }),
      ]);
      expect(toKim.status).toBeLessThan(500);
      expect(toQueue.status).toBeLessThan(500);
      expect([toKim.status, toQueue.status]).toContain(200);
      expect(toKim.status === 200 && toQueue.status === 200).toBe(false);
      await pause(200);
      const state = await row(id);
      if (toKim.status === 200)
        expect(state).toEqual({ status: "active", advisor_id: ids.get(kim) });
      else {
        expect(state).toEqual({ status: "waiting", advisor_id: null });
        expect(await queued()).toContain(id);
        expect(await load(ids.get(kim)!)).toBe(0);
      }
      expect(await chatsOf(sam)).not.toContain(id);
      const stale = await call(
        server.url,
        ParticipantPath.CreateParticipantConnection,
        accepted.ParticipantToken,
        {
          Type: ["CONNECTION_CREDENTIALS"],
        },
      );
      expect(stale.status).toBe(403);
      await end(id);
    }
    expect(await accepting()).toBe(0);
  });

  it("the visitor ends the chat during a transfer (at once, and between the hand-over and its announcement): ended, nothing held, no 5xx", async () => {
    for (let round = 0; round < 3; round++) {
      const { customer } = await held();
      const [left, moved] = await Promise.all([
        call(server.url, ParticipantPath.DisconnectParticipant, customer.connectionToken, {}),
        transfer(sam, customer.contactId, { AdvisorId: ids.get(kim), Note: "over to you" }),
      ]);
      expect(left.status).toBe(200);
      expect(moved.status).toBeLessThan(500);
      await vi.waitFor(
        async () => expect((await row(customer.contactId)).status).toBe("ended"),
        BOUND,
      );
      expect(await chatsOf(kim)).not.toContain(customer.contactId);
    }
    const { customer } = await held();
    beforeAnnounce(async () => {
      const left = await call(
        server.url,
        ParticipantPath.DisconnectParticipant,
        customer.connectionToken,
        {},
      );
      expect(left.status).toBe(200);
      await customer.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED, 15_000);
    });
    const moved = await transfer(sam, customer.contactId, { AdvisorId: ids.get(kim) });
    expect(moved.status).toBeGreaterThanOrEqual(400);
    expect(moved.status).toBeLessThan(500);
    await vi.waitFor(
      async () => expect((await row(customer.contactId)).status).toBe("ended"),
      BOUND,
    );
    expect(await load(ids.get(kim)!)).toBe(0);
    expect(await accepting()).toBe(0);
  });

  it("an advisor at their limit (1): a transfer to them racing their own accept, only one of the two is theirs", async () => {
    const { advisor: max, id: maxId } = await newAdvisor("Max", 1);
    for (let round = 0; round < 3; round++) {
      const { customer: a } = await held();
      const b = await waiting();
      const [moved, took] = await Promise.all([
        transfer(sam, a.contactId, { AdvisorId: maxId }),
        max.accept(b.contactId),
      ]);
      expect([moved.status, took.status].sort(), JSON.stringify([moved.body, took.body])).toEqual([
        200, 409,
      ]);
      await pause(200);
      expect(await load(maxId)).toBe(1);
      if (moved.status === 200) {
        expect(await row(a.contactId)).toEqual({ status: "active", advisor_id: maxId });
        expect(await row(b.contactId)).toEqual({ status: "waiting", advisor_id: null });
      } else {
        expect(await row(a.contactId)).toEqual({ status: "active", advisor_id: ids.get(sam) });
        expect(await row(b.contactId)).toEqual({ status: "active", advisor_id: maxId });
      }
      await end(a.contactId);
      await end(b.contactId);
      await vi.waitFor(async () => expect(await load(maxId)).toBe(0), BOUND);
    }
  });

  it("the target signs out or is disabled while the chat is handed to them: it ends with Sam or in the queue, never with them", async () => {
    for (const how of ["sign-out", "disable", "sign-out", "disable"] as const) {
      const { advisor: ann, username, id: annId } = await newAdvisor("Ann");
      const { customer } = await held();
      const id = customer.contactId;
      const [moved, gone] = await Promise.all([
        transfer(sam, id, { AdvisorId: annId }),
        how === "sign-out"
          ? ann.request(AgentApiPath.SignOut, { body: {} })
          : adminPost(server, ADMIN_TOKEN, `/admin-api/advisors/${username}/disable`),
      ]);
      expect(gone.status).toBe(200);
      expect(moved.status, JSON.stringify(moved.body)).toBeLessThan(500);
      await pause(SWEPT_MS);
      expect(await load(annId)).toBe(0);
      const state = await row(id);
      if (state.status === "active") expect(state.advisor_id).toBe(ids.get(sam));
      else {
        expect(state).toEqual({ status: "waiting", advisor_id: null });
        expect(await queued()).toContain(id);
      }
      await end(id);
    }
    expect(await accepting()).toBe(0);
  }, 60_000);

  it("an advisor accepting the chat as it goes back to the queue gets it once, whole; Sam's token is refused", async () => {
    for (let round = 0; round < 2; round++) {
      const { customer, accepted } = await held();
      const id = customer.contactId;
      let stop = false;
      const grabbing = (async () => {
        for (;;) {
          const r = await lee.accept(id);
          if (r.status === 200 || stop) return r.status;
          await pause(2);
        }
      })();
      const moved = await transfer(sam, id, { Queue: true });
      expect(moved.status).toBe(200);
      const got = await Promise.race([grabbing, pause(15_000).then(() => 0)]);
      stop = true;
      expect(got).toBe(200);
      await vi.waitFor(async () => expect(await chatsOf(lee)).toContain(id), BOUND);
      expect(await row(id)).toEqual({ status: "active", advisor_id: ids.get(lee) });
      expect(await queued()).not.toContain(id);
      await customer.waitFor(
        (i) => i.ContentType === ContentType.PARTICIPANT_LEFT && i.DisplayName === "Sam",
        15_000,
      );
      const joins = customer
        .items()
        .filter((i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.DisplayName === "Lee");
      expect(joins).toHaveLength(1);
      const stale = await call(
        server.url,
        ParticipantPath.CreateParticipantConnection,
        accepted.ParticipantToken,
        {
          Type: ["CONNECTION_CREDENTIALS"],
        },
      );
      expect(stale.status).toBe(403);
      await end(id);
    }
    expect(await accepting()).toBe(0);
  });

  it("who may ask: a disabled or signed-out advisor 403; a waiting chat 404 to all; an ended one 409; the targets are only those who can take it", async () => {
    const { advisor: dee, username: deeName, id: deeId } = await newAdvisor("Dee");
    const { advisor: ola, id: olaId } = await newAdvisor("Ola");
    const { advisor: off, id: offId } = await newAdvisor("Off");
    expect((await off.setAvailability("Offline")).status).toBe(200);
    const { customer } = await held(dee);
    const mine = (await held()).customer;

    // The targets: Kim and Lee and Dee (signed in, Available, enabled), not Sam, not Off.
    const seen = (await targets(sam, mine.contactId)).body.Advisors.map((a) => a.AdvisorId);
    expect(seen).toEqual(expect.arrayContaining([ids.get(kim), ids.get(lee), deeId, olaId]));
    expect(seen).not.toContain(ids.get(sam));
    expect(seen).not.toContain(offId);
    expect((await transfer(sam, mine.contactId, { AdvisorId: offId })).status).toBe(409);

    // Ola signs out: no longer a target, refused as one; her token refused everywhere.
    expect((await ola.request(AgentApiPath.SignOut, { body: {} })).status).toBe(200);
    expect(
      (await targets(sam, mine.contactId)).body.Advisors.map((a) => a.AdvisorId),
    ).not.toContain(olaId);
    expect((await transfer(sam, mine.contactId, { AdvisorId: olaId })).status).toBe(409);
    expect((await targets(ola, mine.contactId)).status).toBe(403);
    expect((await transfer(ola, mine.contactId, { Queue: true })).status).toBe(403);

    // Dee is disabled holding a chat: her token is refused, she is no target (404), and her
    // chat goes back to the queue.
    expect(
      (await adminPost(server, ADMIN_TOKEN, `/admin-api/advisors/${deeName}/disable`)).status,
    ).toBe(200);
    expect((await targets(dee, customer.contactId)).status).toBe(403);
    expect((await transfer(dee, customer.contactId, { AdvisorId: ids.get(kim) })).status).toBe(403);
    expect((await transfer(dee, customer.contactId, { Queue: true })).status).toBe(403);
    expect((await transfer(sam, mine.contactId, { AdvisorId: deeId })).status).toBe(404);
    expect(
      (await targets(sam, mine.contactId)).body.Advisors.map((a) => a.AdvisorId),
    ).not.toContain(deeId);
    await vi.waitFor(async () => expect(await queued()).toContain(customer.contactId), BOUND);

    // A waiting chat is nobody's: 404 to every advisor, the notes untouched.
    for (const who of [sam, kim, lee]) {
      expect((await targets(who, customer.contactId)).status).toBe(404);
      expect(
        (await transfer(who, customer.contactId, { Queue: true, Note: "mine now" })).status,
      ).toBe(404);
    }

    // Sam's own chat: a blank note stores nothing; then it ends: 409 for Sam, and for Kim.
    const blank = await transfer(sam, mine.contactId, { AdvisorId: ids.get(kim), Note: "  \n " });
    expect(blank.status).toBe(200);
    await vi.waitFor(async () => expect(await chatsOf(kim)).toContain(mine.contactId), BOUND);
    const notes = await http<NotesResponse>(
      server.url + agentContactPath(NotesApiPath.Notes, mine.contactId),
      { headers: as(kim) },
    );
    expect(notes.body.Notes).toEqual([]);
    expect((await kim.request(agentContactPath(AgentApiPath.End, mine.contactId))).status).toBe(
      200,
    );
    await mine.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED, 15_000);
    for (const who of [kim, sam]) {
      expect((await transfer(who, mine.contactId, { Queue: true })).status).toBe(409);
      expect((await targets(who, mine.contactId)).status).toBe(409);
    }
    await end(customer.contactId);
    // An agent participant's own token is no advisor's.
    const { accepted } = await held(kim);
    expect((await targets({ token: accepted.ParticipantToken }, accepted.ContactId)).status).toBe(
      403,
    );
    expect(
      (await transfer({ token: accepted.ParticipantToken }, accepted.ContactId, { Queue: true }))
        .status,
    ).toBe(403);
    await end(accepted.ContactId);
  });
});
