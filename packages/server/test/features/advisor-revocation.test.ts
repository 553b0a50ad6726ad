/**
 * Issue 57, finding 2: disabling an advisor, resetting their password or signing them out ends
 * what they hold, in every process, before any later message reaches them: their advisor
 * websocket and events stream close, their AGENT participants leave (their tokens refused even
 * where a process cached the caller), their chats wait in the queue again (the visitor told),
 * and a websocket URL handed out before opens nothing.
 */
import {
  AgentApiPath,
  ContentType,
  ParticipantPath,
  type Item,
  type WebSocketTransportResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADVISOR_REVOKED_CLOSE } from "../../src/agent-socket/advisor-hub.js";
import { runAdvisorsCommand } from "../../src/cli/advisors-commands.js";
import { call, connectParticipant, FrameClient } from "../support/client.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  adminPost,
  eventStream,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  startTwoProcesses,
  widgetCustomer,
  type Advisor,
  type TwoProcesses,
} from "./helpers.js";

const ADMIN_TOKEN = "revocation-admin-token-0123456789abcdef";
const BOUND = { timeout: 15_000 };
let advisors = 0;

/** Everything the test opened, closed after each. */
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

const admin = (url: string, path: string, body: unknown = {}) =>
  adminPost<{ Password: string }>({ url }, ADMIN_TOKEN, path, body);

/** A new advisor of the admin API, signed in (on `signInUrl`) and Available. */
async function newAdvisor(url: string, signInUrl = url) {
  const username = `advisor${++advisors}`;
  const advisor = await addAdvisor({ url }, ADMIN_TOKEN, username, "Robin", { url: signInUrl });
  expect((await advisor.setAvailability("Available")).status).toBe(200);
  return { username, advisor };
}

/** A visitor who asked for an advisor, and whose chat `advisor` accepted: its AGENT credentials. */
async function acceptedChat(url: string, advisor: Advisor) {
  const customer = await widgetCustomer({ url } as TestServer, null);
  opened.push(customer);
  await customer.say("Talk to an advisor");
  const participantToken = (await heldBy(advisor, customer)).accepted.ParticipantToken;
  const agent = await connectParticipant(url, participantToken);
  return { customer, participantToken, connectionToken: agent.connectionToken };
}

/** The advisor's websocket (on `url`), subscribed to aws/chat. */
async function advisorSocket(url: string, advisor: Advisor): Promise<FrameClient> {
  const r = await http<WebSocketTransportResponse>(url + AgentApiPath.WebSocketTransport, {
    method: "POST",
    headers: { authorization: `Bearer ${advisor.token}` },
  });
  expect(r.status).toBe(200);
  const socket = await FrameClient.subscribed(r.body.webSocketTransport.url);
  opened.push({ close: () => socket.socket.close() });
  return socket;
}

const agentLeft = (i: Item) =>
  i.ContentType === ContentType.PARTICIPANT_LEFT && i.ParticipantRole === "AGENT";
const toldPlace = (i: Item) =>
  i.Type === "MESSAGE" && /You are number \*\*1\*\*/.test(i.Content ?? "");

/**
 * Everything the revoked advisor held is gone, as seen from `url`: the AGENT token and its
 * connection refused, the chat waiting in the queue again, the visitor told; and the
 * customer's next message reaches another advisor who accepts it, not the revoked one.
 */
async function expectRevoked(
  url: string,
  chat: Awaited<ReturnType<typeof acceptedChat>>,
  socket: FrameClient,
) {
  const { customer } = chat;
  await customer.waitFor(agentLeft, 15_000);
  const sent = await call(url, ParticipantPath.SendMessage, chat.connectionToken, {
    ContentType: ContentType.TEXT_PLAIN,
    Content: "still here?",
  });
  expect(sent.status).toBe(403);
  const reconnect = await call(
    url,
    ParticipantPath.CreateParticipantConnection,
    chat.participantToken,
    {
      Type: ["CONNECTION_CREDENTIALS"],
    },
  );
  expect(reconnect.status).toBe(403);
  await customer.say("Hello? Anyone there?");
  const { advisor: other } = await newAdvisor(url);
  const queue = await other.request<{ Contacts: { ContactId: string }[] }>(AgentApiPath.Queue);
  expect(queue.body.Contacts.map((c) => c.ContactId)).toContain(customer.contactId);
  await customer.waitFor(toldPlace, 15_000);
  expect((await other.accept(customer.contactId)).status).toBe(200);
  // The revoked advisor's socket closed before the visitor's next message, which it never saw.
  expect(socket.closed?.code).toBe(ADVISOR_REVOKED_CLOSE);
  expect(socket.raw.some((f) => f.includes("Hello? Anyone there?"))).toBe(false);
}

describe.each(ENGINES)("revoking an advisor (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
  }, 120_000);
  afterAll(() => server?.close());

  it("disabling an advisor closes their websocket and events stream, makes their AGENT participant leave and puts their chat back in the queue, the visitor told", async () => {
    const { username, advisor } = await newAdvisor(server.url);
    const chat = await acceptedChat(server.url, advisor);
    const socket = await advisorSocket(server.url, advisor);
    const stream = await eventStream(server.url, advisor, opened);
    const urlBefore = await http<WebSocketTransportResponse>(
      server.url + AgentApiPath.WebSocketTransport,
      { method: "POST", headers: { authorization: `Bearer ${advisor.token}` } },
    );
    expect((await admin(server.url, `/admin-api/advisors/${username}/disable`)).status).toBe(200);
    await expect.poll(() => socket.closed !== null && stream.ended, BOUND).toBe(true);
    // A websocket URL handed out before the disable opens nothing now.
    await expect(FrameClient.open(urlBefore.body.webSocketTransport.url)).rejects.toThrow(
      "unexpected response 403",
    );
    await expectRevoked(server.url, chat, socket);
  });

  it("the advisors CLI's disable, which writes only the store, reaches the running server too", async () => {
    const { username, advisor } = await newAdvisor(server.url);
    const chat = await acceptedChat(server.url, advisor);
    const socket = await advisorSocket(server.url, advisor);
    const stream = await eventStream(server.url, advisor, opened);
    await runAdvisorsCommand(server.built.deps.db, ["disable", username]);
    await expect.poll(() => socket.closed !== null && stream.ended, BOUND).toBe(true);
    await expectRevoked(server.url, chat, socket);
  });

  it("resetting their password does the same", async () => {
    const { username, advisor } = await newAdvisor(server.url);
    const chat = await acceptedChat(server.url, advisor);
    const socket = await advisorSocket(server.url, advisor);
    const reset = await admin(server.url, `/admin-api/advisors/${username}/reset-password`);
    expect(reset.status).toBe(200);
    await expect.poll(() => socket.closed !== null, BOUND).toBe(true);
    await expectRevoked(server.url, chat, socket);
  });

  it("signing out of their last session does the same; while another session is signed in, the chats stay", async () => {
    const { username, advisor } = await newAdvisor(server.url);
    const chat = await acceptedChat(server.url, advisor);
    const socket = await advisorSocket(server.url, advisor);
    // A second console, signed in as the same advisor, then signed out: nothing else changes.
    const password = (await admin(server.url, `/admin-api/advisors/${username}/reset-password`))
      .body.Password;
    // (The reset revoked the first session: start again with two fresh ones.)
    await expectRevoked(server.url, chat, socket);
    const first = await signIn(server, username, password);
    const second = await signIn(server, username, password);
    expect((await first.setAvailability("Available")).status).toBe(200);
    const again = await acceptedChat(server.url, first);
    const firstSocket = await advisorSocket(server.url, first);
    expect((await second.request(AgentApiPath.SignOut)).status).toBe(200);
    expect((await first.request<{ Chats: unknown[] }>(AgentApiPath.Chats)).body.Chats).toHaveLength(
      1,
    );
    expect(firstSocket.closed).toBeNull();
    expect((await first.request(AgentApiPath.SignOut)).status).toBe(200);
    await expect.poll(() => firstSocket.closed !== null, BOUND).toBe(true);
    await expectRevoked(server.url, again, firstSocket);
  });
});

describe("revoking an advisor across two processes (PostgreSQL + Redis)", () => {
  let processes: TwoProcesses;
  beforeAll(async () => {
    processes = await startTwoProcesses({ ADMIN_TOKEN });
  }, 120_000);
  afterAll(() => processes?.close());

  it("disabled on one process, the advisor's websocket and events stream on the other close, their cached AGENT token is refused there and their chat waits again", async () => {
    const [a, b] = processes.urls;
    const { username, advisor } = await newAdvisor(b, a);
    const chat = await acceptedChat(a, advisor);
    // The AGENT connection used on A, so A's caller cache holds it.
    const used = await call(a, ParticipantPath.SendMessage, chat.connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: "Hello, Robin here.",
    });
    expect(used.status).toBe(200);
    const socket = await advisorSocket(a, advisor);
    const stream = await eventStream(a, advisor, opened);
    expect((await admin(b, `/admin-api/advisors/${username}/disable`)).status).toBe(200);
    await expect.poll(() => socket.closed !== null && stream.ended, BOUND).toBe(true);
    await expectRevoked(a, chat, socket);
  });
});
