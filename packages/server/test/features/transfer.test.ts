/**
 * Issue 60 (4), the transfer routes: the advisor holding a live chat sees who can take it
 * (available advisors with their load, and the queue) and hands it to one of them or back to
 * the queue with a note. The visitor sees transfer.succeeded, the first advisor leave and the
 * next join, in that order; the first advisor's AGENT token is refused from then on; the next
 * reads the whole history and the note. Anyone else, and every bad request, is refused.
 */
import {
  AgentApiPath,
  ContentType,
  NotesApiPath,
  ParticipantPath,
  TRANSFER_NOTE_MAX,
  TransferApiPath,
  agentContactPath,
  type ActiveChat,
  type Item,
  type NotesResponse,
  type TransferResponse,
  type TransferTargetsResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import { call, connectParticipant, FrameClient } from "../support/client.js";
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
} from "./helpers.js";

const ADMIN_TOKEN = "transfer-admin-token-0123456789abcdef0";

const event = (type: string) => (i: Item) => i.ContentType === type;
const agentLine = (type: string, name: string) => (i: Item) =>
  i.ContentType === type && i.ParticipantRole === "AGENT" && i.DisplayName === name;

describe.each(ENGINES)("transfer (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  let lee: Advisor;
  let kimId: string;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
    lee = await addAdvisor(server, ADMIN_TOKEN, "lee", "Lee"); // stays Offline
    [, kimId] = await available(sam, kim);
  }, 120_000);
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function held(by: Advisor = sam) {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    await c.say("Talk to an advisor");
    return heldBy(by, c);
  }

  const as = (who: { token: string } | string | null): Record<string, string> =>
    who === null ? {} : { authorization: `Bearer ${typeof who === "string" ? who : who.token}` };
  const targets = (who: { token: string } | string | null, contactId: string) =>
    http<TransferTargetsResponse & { message?: string }>(
      server.url + agentContactPath(TransferApiPath.Targets, contactId),
      { headers: as(who) },
    );
  const transfer = (who: { token: string } | string | null, contactId: string, body: unknown) =>
    http<TransferResponse & { message?: string }>(
      server.url + agentContactPath(TransferApiPath.Transfer, contactId),
      { body, headers: as(who) },
    );
  const notes = (who: Advisor, contactId: string) =>
    http<NotesResponse>(server.url + agentContactPath(NotesApiPath.Notes, contactId), {
      headers: as(who),
    });
  const chatsOf = async (who: Advisor) =>
    (await who.request<{ Chats: ActiveChat[] }>(AgentApiPath.Chats)).body.Chats;

  it("the holder sees the available advisors with their load, least loaded first, and the queue", async () => {
    const { customer } = await held();
    const r = await targets(sam, customer.contactId);
    expect(r.status).toBe(200);
    expect(r.body.Queue).toBe("advisors");
    const names = r.body.Advisors.map((a) => a.Name);
    expect(names).toContain("Kim");
    expect(names).not.toContain("Lee"); // Offline
    expect(names).not.toContain("Sam"); // oneself
    const k = r.body.Advisors.find((a) => a.Name === "Kim")!;
    expect(k).toMatchObject({ AdvisorId: kimId, Username: "kim", Chats: 0 });
    expect(k.MaxChats).toBeGreaterThan(0);
  });

  it("to an advisor: the visitor sees the transfer, Sam leave and Kim join in that order; Sam's token is refused; Kim reads the history and the note", async () => {
    const { customer, accepted } = await held();
    const samAgent = await connectParticipant(server.url, accepted.ParticipantToken);
    const samSocket = await FrameClient.subscribed(samAgent.websocketUrl);
    opened.push({ close: () => samSocket.socket.close() });
    await customer.say("My parcel is late");

    const r = await transfer(sam, customer.contactId, { AdvisorId: kimId, Note: "Wants a refund" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ContactId: customer.contactId, AdvisorId: kimId, AdvisorName: "Kim" });

    const joined = await customer.waitFor(agentLine(ContentType.PARTICIPANT_JOINED, "Kim"), 15_000);
    const items = customer.items();
    const at = (match: (i: Item) => boolean) => items.findIndex(match);
    const moved = at(event(ContentType.TRANSFER_SUCCEEDED));
    const left = at(agentLine(ContentType.PARTICIPANT_LEFT, "Sam"));
    expect(moved).toBeGreaterThan(-1);
    expect(items[moved]!.ParticipantId).toBe(accepted.ParticipantId);
    expect(left).toBeGreaterThan(moved);
    expect(at((i) => i.Id === joined.Id)).toBeGreaterThan(left);
    // Sam's own session got the transfer before the next advisor joined.
    await samSocket.waitFor(() => samSocket.raw.some((f) => f.includes("transfer.succeeded")), {
      ms: 15_000,
    });

    const again = await call(server.url, ParticipantPath.SendMessage, samAgent.connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: "still mine?",
    });
    expect(again.status).toBe(403);
    const reconnect = await call(
      server.url,
      ParticipantPath.CreateParticipantConnection,
      accepted.ParticipantToken,
      { Type: ["CONNECTION_CREDENTIALS"] },
    );
    expect(reconnect.status).toBe(403);
    expect((await notes(sam, customer.contactId)).status).toBe(404);
    expect((await chatsOf(sam)).map((c) => c.ContactId)).not.toContain(customer.contactId);

    const kimChat = (await chatsOf(kim)).find((c) => c.ContactId === customer.contactId)!;
    expect(kimChat).toBeDefined();
    const kimNotes = await notes(kim, customer.contactId);
    expect(kimNotes.body.Notes.map((n) => [n.AdvisorName, n.Body])).toEqual([
      ["Sam", "Transferred to Kim: Wants a refund"],
    ]);
    const kimAgent = await connectParticipant(server.url, kimChat.ParticipantToken);
    const transcript = await call<{ Transcript: Item[] }>(
      server.url,
      ParticipantPath.GetTranscript,
      kimAgent.connectionToken,
      { MaxResults: 100, ScanDirection: "FORWARD" },
    );
    expect(transcript.body.Transcript.map((i) => i.Content)).toContain("My parcel is late");
    const sent = await call(server.url, ParticipantPath.SendMessage, kimAgent.connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: "Kim here, I'll sort it",
    });
    expect(sent.status).toBe(200);
    await customer.waitFor((i) => i.Content === "Kim here, I'll sort it", 15_000);
    // Kim may hand it on again (a chat is transferred as often as needed).
    const back = await transfer(kim, customer.contactId, { Queue: true });
    expect(back.status).toBe(200);
  });

  it("to the queue: Sam leaves, the chat waits for the next advisor, who reads the note", async () => {
    const { customer } = await held();
    const r = await transfer(sam, customer.contactId, { Queue: true, Note: "Needs billing" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ContactId: customer.contactId, AdvisorId: null, AdvisorName: null });
    await customer.waitFor(event(ContentType.TRANSFER_SUCCEEDED), 15_000);
    await customer.waitFor(agentLine(ContentType.PARTICIPANT_LEFT, "Sam"), 15_000);
    const queue = await kim.request<{ Contacts: { ContactId: string }[] }>(AgentApiPath.Queue);
    expect(queue.body.Contacts.map((c) => c.ContactId)).toContain(customer.contactId);
    expect((await kim.accept(customer.contactId)).status).toBe(200);
    await customer.waitFor(agentLine(ContentType.PARTICIPANT_JOINED, "Kim"), 15_000);
    expect((await notes(kim, customer.contactId)).body.Notes.map((n) => n.Body)).toEqual([
      "Transferred to the queue: Needs billing",
    ]);
    await transfer(kim, customer.contactId, { Queue: true });
  });

  it("refuses another advisor (404), a participant token and a stranger (403), and bad requests (400)", async () => {
    const { customer, accepted } = await held();
    const id = customer.contactId;
    expect((await targets(kim, id)).status).toBe(404);
    expect((await transfer(kim, id, { Queue: true })).status).toBe(404);
    for (const token of [accepted.ParticipantToken, customer.participantToken, "nobody", null]) {
      expect((await targets(token, id)).status).toBe(403);
      expect((await transfer(token, id, { Queue: true })).status).toBe(403);
    }
    const bad: unknown[] = [
      {},
      { AdvisorId: kimId, Queue: true },
      { Queue: false },
      { AdvisorId: "" },
      { AdvisorId: 7 },
      { Queue: true, Note: "x".repeat(TRANSFER_NOTE_MAX + 1) },
      "to kim",
    ];
    for (const body of bad) {
      const r = await transfer(sam, id, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
    expect((await transfer(sam, id, { AdvisorId: await sam.advisorId() })).status).toBe(400);
    expect((await transfer(sam, id, { AdvisorId: "no-such-advisor" })).status).toBe(404);
    const offline = await transfer(sam, id, { AdvisorId: await lee.advisorId() });
    expect(offline.status).toBe(409);
    expect(offline.body.message).toBe("Lee is not available to take chats.");
    // Nothing moved: Sam still holds it and can still hand it on.
    expect((await chatsOf(sam)).map((c) => c.ContactId)).toContain(id);
    expect((await notes(sam, id)).status).toBe(200);
  });

  it("refuses an advisor at their most chats (409), and a chat that ended (409)", async () => {
    const added = await adminPost<{ Password: string }>(
      server,
      ADMIN_TOKEN,
      "/admin-api/advisors",
      {
        Username: "max",
        Name: "Max",
        MaxConcurrentChats: 1,
      },
    );
    expect(added.status).toBe(200);
    const max = await signIn(server, "max", added.body.Password);
    const [maxId] = await available(max);
    const { customer: busy } = await held(max);
    const full = (await targets(sam, (await held()).customer.contactId)).body.Advisors.find(
      (a) => a.AdvisorId === maxId,
    );
    expect(full).toMatchObject({ Chats: 1, MaxChats: 1 });
    const { customer } = await held();
    const r = await transfer(sam, customer.contactId, { AdvisorId: maxId });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Max has 1 chats, the most they take at once.");

    expect((await sam.request(agentContactPath(AgentApiPath.End, customer.contactId))).status).toBe(
      200,
    );
    await customer.waitFor(event(ContentType.CHAT_ENDED), 15_000);
    expect((await transfer(sam, customer.contactId, { Queue: true })).status).toBe(409);
    await max.request(agentContactPath(AgentApiPath.End, busy.contactId));
  });
});
