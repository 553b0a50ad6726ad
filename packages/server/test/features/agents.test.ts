import { createHash } from "node:crypto";
import {
  AgentApiPath,
  ContentType,
  ParticipantPath,
  agentContactPath,
  type ChatsResponse,
  type QueueResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insertAdvisor } from "../../src/agents/advisors-repo.js";
import { hashPassword } from "../../src/agents/password.js";
import { call } from "../support/client.js";
import { tablesHolding } from "../support/db-search.js";
import { ENGINES } from "../support/databases.js";
import { statementsDuring } from "../support/statements.js";
import type { TestServer } from "../support/server.js";
import {
  http,
  isAssistant,
  isPicker,
  postFrom,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Customer,
} from "./helpers.js";

/** A customer who asked to talk to an advisor: the contact is in the queue. */
async function queuedCustomer(server: TestServer): Promise<Customer> {
  const customer = await widgetCustomer(server, { orderNumber: "A-10042" });
  await customer.waitFor(isPicker);
  await customer.echoBot();
  await customer.say("Talk to an advisor");
  await customer.waitFor((i) => isAssistant(i) && i.Content === "Connecting you to an advisor…");
  return customer;
}

async function waitForQueued(
  server: TestServer,
  token: string,
  contactId: string,
): Promise<QueueResponse> {
  for (let i = 0; i < 100; i++) {
    const q = await http<QueueResponse>(server.url + AgentApiPath.Queue, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (q.body.Contacts.some((c) => c.ContactId === contactId)) return q.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("contact never reached the queue");
}

/** A sign-in from the given loopback address, so the server sees another client address. */
const signInFrom = (
  server: TestServer,
  localAddress: string,
  Username: string,
  Password: string,
  headers: Record<string, string> = {},
) => postFrom(server.url + AgentApiPath.SignIn, localAddress, { Username, Password }, headers);

/** The tables of the store that hold `text` anywhere in a row. */
describe.each(ENGINES)("agent API (%s)", (engine) => {
  let server: TestServer;
  const customers: Customer[] = [];
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(async () => {
    for (const c of customers) c.close();
    await server.close();
  });

  it("signs in the seeded demo advisor and refuses a wrong password", async () => {
    const ok = await http(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: "demo" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      Advisor: { Username: "demo", Name: "Sam", MaxConcurrentChats: 10 },
    });
    const wrong = await http(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: "nope" },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    const noToken = await http(server.url + AgentApiPath.Queue);
    expect(noToken.status).toBe(403);
    expect(noToken.body).toMatchObject({ __type: "AccessDeniedException" });
  });

  it("throttles sign-in per account: 5 wrong passwords get 403, then 429 with Retry-After even with the right one; another account from another address is unaffected", async () => {
    for (const name of ["pat", "ola"]) {
      await insertAdvisor(server.built.deps.db, {
        advisorId: `${name}-${engine}`,
        username: `${name}-${engine}`,
        name,
        passwordHash: await hashPassword("right"),
      });
    }
    const pat = `pat-${engine}`;
    for (let i = 0; i < 5; i++) {
      const wrong = await signInFrom(server, "127.0.0.1", pat, `wrong-${i}`);
      expect(wrong.status, `attempt ${i + 1}`).toBe(403);
      expect(wrong.body).toMatchObject({ __type: "AccessDeniedException" });
    }
    for (const password of ["wrong-5", "right"]) {
      const refused = await signInFrom(server, "127.0.0.1", pat, password);
      expect(refused.status).toBe(429);
      expect(refused.body.__type).toBe("ThrottlingException");
      const seconds = Number(refused.retryAfter);
      expect(Number.isInteger(seconds)).toBe(true);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(15 * 60);
      expect(refused.body.message).toBe(`Too many sign-in attempts. Try again in ${seconds} s.`);
    }
    // Per account: a new address does not help; the case of the username counts as given.
    expect((await signInFrom(server, "127.0.0.2", pat, "right")).status).toBe(429);
    expect((await signInFrom(server, "127.0.0.2", pat.toUpperCase(), "right")).status).toBe(403);
    // Another account from another address signs in, and its wrong password is still a 403.
    const ola = `ola-${engine}`;
    expect((await signInFrom(server, "127.0.0.3", ola, "wrong")).status).toBe(403);
    const ok = await signInFrom(server, "127.0.0.3", ola, "right");
    expect(ok.status).toBe(200);
    expect(ok.body.Token).toBeTruthy();
  });

  it("throttles sign-in per address: 20 failures over any usernames, then 429; a spoofed X-Forwarded-For does not change the address", async () => {
    for (let i = 0; i < 20; i++) {
      const wrong = await signInFrom(server, "127.0.0.4", `nobody-${i}`, "guess", {
        "x-forwarded-for": `198.51.100.${i}`,
      });
      expect(wrong.status, `attempt ${i + 1}`).toBe(403);
    }
    const refused = await signInFrom(server, "127.0.0.4", "demo", "demo", {
      "x-forwarded-for": "198.51.100.99",
    });
    expect(refused.status).toBe(429);
    expect(refused.body.__type).toBe("ThrottlingException");
    expect(refused.body.message).toBe(
      `Too many sign-in attempts. Try again in ${refused.retryAfter} s.`,
    );
    // The same account from another address is fine.
    expect((await signInFrom(server, "127.0.0.5", "demo", "demo")).status).toBe(200);
  });

  it("once the flow handed a chat on, its customer's messages no longer read the flow's position", async () => {
    const customer = await queuedCustomer(server);
    customers.push(customer);
    /** The position reads issued while the customer says `texts` (a transcript read after them
     * queues behind any read their commits set off: the store runs one statement at a time). */
    const readsWhile = (...texts: string[]) =>
      statementsDuring(server.built.deps.db, /FROM flow_positions/, async () => {
        for (const text of texts) await customer.say(text);
        const transcript = await call(
          server.url,
          ParticipantPath.GetTranscript,
          customer.connectionToken,
          {},
        );
        expect(transcript.status).toBe(200);
      });
    // The hand-over's own steps performed: the flow waits for nothing and has nothing to do.
    await vi.waitFor(
      async () => {
        const [row] = await server.built.deps.db.query<Record<string, unknown>>(
          "SELECT waiting_in, pending_effects FROM flow_positions WHERE contact_id = $1",
          [customer.contactId],
        );
        expect(row).toEqual({ waiting_in: null, pending_effects: [] });
      },
      { timeout: 10_000 },
    );
    // The next message reads the position, and finds it listens no more.
    expect(await readsWhile("Hello?")).toHaveLength(1);
    expect(await readsWhile("Anyone there?", "Still waiting")).toEqual([]);
    // Out of the queue, for the tests after.
    const left = await call(
      server.url,
      ParticipantPath.DisconnectParticipant,
      customer.connectionToken,
      {},
    );
    expect(left.status).toBe(200);
  });

  it("'Talk to an advisor' puts the contact in the queue; the advisor accepts and the customer sees '{name} has joined'", async () => {
    const advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    const customer = await queuedCustomer(server);
    customers.push(customer);
    const queue = await waitForQueued(server, advisor.token, customer.contactId);
    const entry = queue.Contacts.find((c) => c.ContactId === customer.contactId)!;
    expect(entry).toMatchObject({ Queue: "advisors", OrderNumber: "A-10042" });
    // The queue shows only what the console shows: no attributes (issue 57).
    expect(entry).not.toHaveProperty("Attributes");

    const accepted = await advisor.accept(customer.contactId);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      ContactId: customer.contactId,
      Attributes: { orderNumber: "A-10042" },
    });
    const joined = await customer.waitFor(
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT",
    );
    expect(joined.DisplayName).toBe("Sam");

    // The queue no longer lists it; the advisor's chats do, with its attributes.
    const after = await advisor.request<QueueResponse>(AgentApiPath.Queue);
    expect(after.body.Contacts.map((c) => c.ContactId)).not.toContain(customer.contactId);
    const chats = await advisor.request<ChatsResponse>(AgentApiPath.Chats);
    expect(chats.body.Chats.find((c) => c.ContactId === customer.contactId)).toMatchObject({
      ParticipantId: accepted.body.ParticipantId,
      Attributes: { orderNumber: "A-10042" },
    });

    // Accepting again returns the same chat; another advisor cannot take it.
    const again = await advisor.accept(customer.contactId);
    expect(again.status).toBe(200);
    expect(again.body.ParticipantId).toBe(accepted.body.ParticipantId);
    await insertAdvisor(server.built.deps.db, {
      advisorId: `lee-${engine}`,
      username: `lee-${engine}`,
      name: "Lee",
      passwordHash: await hashPassword("pw"),
    });
    const lee = await signIn(server, `lee-${engine}`, "pw");
    await lee.setAvailability("Available");
    const taken = await lee.accept(customer.contactId);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      message: `Contact ${customer.contactId} has already been accepted.`,
    });
  });

  it("the connection-token endpoint gives a token the participant service accepts", async () => {
    const advisor = await signIn(server);
    await advisor.setAvailability("Available");
    const customer = await queuedCustomer(server);
    customers.push(customer);
    await waitForQueued(server, advisor.token, customer.contactId);
    const accepted = await advisor.accept(customer.contactId);
    const path = agentContactPath(AgentApiPath.ConnectionToken, customer.contactId);
    const grant = await advisor.request<{
      chatTokenTransport: { participantToken: string; expiry: string };
    }>(path);
    expect(grant.status).toBe(200);
    const { participantToken, expiry } = grant.body.chatTokenTransport;
    expect(Date.parse(expiry)).toBeGreaterThan(Date.now());
    // chatjs uses it as the connection token for every HTTP call, then acknowledges with the participant token.
    const sent = await call(server.url, "/participant/message", participantToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: "Hello, I'm Sam. Let me check that for you.",
    });
    expect(sent.status).toBe(200);
    const message = await customer.waitFor(
      (i) => i.ParticipantRole === "AGENT" && i.Type === "MESSAGE",
    );
    expect(message).toMatchObject({
      DisplayName: "Sam",
      Content: "Hello, I'm Sam. Let me check that for you.",
    });
    const ack = await call(server.url, "/participant/connection", accepted.body.ParticipantToken, {
      ConnectParticipant: true,
    });
    expect(ack.status).toBe(200);
    // The customer typing to the advisor is not taken by the flow.
    await customer.say("Thanks!");
    expect(customer.items().filter(isAssistant).at(-1)!.Content).toBe(
      "You are number **1** in the queue.",
    );

    // Ending the contact: chat ended for the customer; the chat leaves the advisor's list.
    const end = await advisor.request(agentContactPath(AgentApiPath.End, customer.contactId));
    expect(end.status).toBe(200);
    await customer.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED);
    for (let i = 0; i < 50; i++) {
      const chats = await advisor.request<ChatsResponse>(AgentApiPath.Chats);
      if (!chats.body.Chats.some((c) => c.ContactId === customer.contactId)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const chats = await advisor.request<ChatsResponse>(AgentApiPath.Chats);
    expect(chats.body.Chats.map((c) => c.ContactId)).not.toContain(customer.contactId);
    const late = await advisor.request(path);
    expect(late.status).toBe(409);
  });

  it("the advisor's participant token is never stored in plain text; the chat list gives back one that connects", async () => {
    const db = server.built.deps.db;
    await insertAdvisor(db, {
      advisorId: `kim-${engine}`,
      username: `kim-${engine}`,
      name: "Kim",
      passwordHash: await hashPassword("pw"),
    });
    const kim = await signIn(server, `kim-${engine}`, "pw");
    await kim.setAvailability("Available");
    const chat = await server.startChat();
    await db.query(
      "INSERT INTO agent_contacts (contact_id, queue, queued_at, status) VALUES ($1, 'advisors', now(), 'waiting')",
      [chat.contactId],
    );
    const accepted = await kim.accept(chat.contactId);
    expect(accepted.status).toBe(200);
    const token = accepted.body.ParticipantToken;
    expect(token).toMatch(/^[\w-]{43}$/);

    // Stored only as its hash, like every participant token.
    expect(await tablesHolding(db, token)).toEqual([]);
    const [row] = await db.query<{ token_hash: string }>(
      "SELECT token_hash FROM participants WHERE participant_id = $1",
      [accepted.body.ParticipantId],
    );
    expect(row!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));

    // The console's chat list (after a reload) and a repeated accept give the same token back.
    const chats = await kim.request<ChatsResponse>(AgentApiPath.Chats);
    const listed = chats.body.Chats.find((c) => c.ContactId === chat.contactId)!;
    expect(listed.ParticipantToken).toBe(token);
    expect((await kim.accept(chat.contactId)).body.ParticipantToken).toBe(token);
    const connected = await call(
      server.url,
      ParticipantPath.CreateParticipantConnection,
      listed.ParticipantToken,
      { Type: ["CONNECTION_CREDENTIALS"], ConnectParticipant: true },
    );
    expect(connected.status).toBe(200);
  });

  it("a customer who leaves while waiting leaves the queue; accepting that contact is refused", async () => {
    const advisor = await signIn(server);
    await advisor.setAvailability("Available");
    const customer = await queuedCustomer(server);
    customers.push(customer);
    await waitForQueued(server, advisor.token, customer.contactId);
    const left = await call(server.url, "/participant/disconnect", customer.connectionToken, {});
    expect(left.status).toBe(200);
    for (let i = 0; i < 100; i++) {
      const q = await advisor.request<QueueResponse>(AgentApiPath.Queue);
      if (!q.body.Contacts.some((c) => c.ContactId === customer.contactId)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const q = await advisor.request<QueueResponse>(AgentApiPath.Queue);
    expect(q.body.Contacts.map((c) => c.ContactId)).not.toContain(customer.contactId);
    const late = await advisor.accept(customer.contactId);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ message: `Contact ${customer.contactId} has ended.` });
  });

  it("an advisor holds up to 10 concurrent chats: the 11th accept is refused", async () => {
    const advisor = await signIn(server);
    await advisor.setAvailability("Available");
    const held = (await advisor.request<ChatsResponse>(AgentApiPath.Chats)).body.Chats.length;
    const contactIds: string[] = [];
    for (let i = 0; i < 11 - held; i++) {
      const chat = await server.startChat();
      await server.built.deps.db.query(
        "INSERT INTO agent_contacts (contact_id, queue, queued_at, status) VALUES ($1, 'advisors', now(), 'waiting')",
        [chat.contactId],
      );
      contactIds.push(chat.contactId);
    }
    const results = [];
    for (const id of contactIds) results.push((await advisor.accept(id)).status);
    expect(results.slice(0, -1).every((s) => s === 200)).toBe(true);
    const refused = await advisor.accept(contactIds.at(-1)!);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ __type: "ConflictException" });
    expect((refused.body as unknown as { message: string }).message).toContain("10 active chats");
  });

  it("an Offline advisor cannot accept, and bad input gets a 4xx naming the problem", async () => {
    const advisor = await signIn(server);
    await advisor.setAvailability("Offline");
    const chat = await server.startChat();
    await server.built.deps.db.query(
      "INSERT INTO agent_contacts (contact_id, queue, queued_at, status) VALUES ($1, 'advisors', now(), 'waiting')",
      [chat.contactId],
    );
    const offline = await advisor.accept(chat.contactId);
    expect(offline.status).toBe(409);
    const unknown = await advisor.accept("no-such-contact");
    expect(unknown.status).toBe(404);
    const badAvailability = await advisor.request(AgentApiPath.Availability, {
      method: "PUT",
      body: { Availability: "Busy" },
    });
    expect(badAvailability.status).toBe(400);
    expect(badAvailability.body).toMatchObject({ __type: "ValidationException" });
    expect((badAvailability.body as { message: string }).message).toContain("Availability");
    const notJson = await http(server.url + AgentApiPath.SignIn, {
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    const missing = await http(server.url + AgentApiPath.SignIn, { body: { Username: "demo" } });
    expect(missing.status).toBe(400);
    expect((missing.body as { message: string }).message).toContain("Password");
  });

  it("streams queue changes to the console as server-sent events", async () => {
    const advisor = await signIn(server);
    const controller = new AbortController();
    const res = await fetch(`${server.url}${AgentApiPath.Events}`, {
      headers: { authorization: `Bearer ${advisor.token}` },
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil("event: chats");
    const customer = await queuedCustomer(server);
    customers.push(customer);
    await readUntil(customer.contactId);
    expect(text).toMatch(/event: queue\ndata: \{"Contacts":\[.*"ContactId":"[^"]+"/);
    controller.abort();
    const refused = await http(`${server.url}${AgentApiPath.Events}`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(refused.status).toBe(403);
    // A token in the URL is never read (it would end up in logs and histories).
    const inUrl = await http(`${server.url}${AgentApiPath.Events}?access_token=${advisor.token}`);
    expect(inUrl.status).toBe(403);
  });
});
