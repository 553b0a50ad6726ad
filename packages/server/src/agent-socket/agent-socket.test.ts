import {
  AgentApiPath,
  ContentType,
  agentContactPath,
  type WebSocketTransportResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADVISOR_TRANSPORT_LIFETIME_SECONDS } from "./plugin.js";
import {
  accept,
  api,
  demoAdvisor,
  queuedCustomer,
  startCentre,
  type Centre,
} from "./test-support/contact-centre.js";
import { FrameClient } from "../../test/support/client.js";

let centre: Centre;
let token: string;
const sockets: FrameClient[] = [];

// One contact centre for the file (starting PGlite is slow); each test brings new customers.
beforeAll(async () => {
  centre = await startCentre();
  token = await demoAdvisor(centre);
}, 90_000);
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await centre?.close();
});

async function advisorSocket(): Promise<FrameClient> {
  const r = await api<WebSocketTransportResponse>(centre, AgentApiPath.WebSocketTransport, token);
  expect(r.status).toBe(200);
  const socket = await FrameClient.open(r.body.webSocketTransport.url);
  sockets.push(socket);
  socket.send({ topic: "aws/subscribe", content: { topics: ["aws/chat"] } });
  await socket.waitFor((f) => f.topic === "aws/subscribe");
  return socket;
}

describe("the advisor websocket transport", () => {
  it("hands a signed-in advisor a ws://127.0.0.1 URL valid for 100 s with a 3540 s lifetime", async () => {
    const before = Date.now();
    const r = await api<WebSocketTransportResponse>(centre, AgentApiPath.WebSocketTransport, token);
    expect(r.status).toBe(200);
    const t = r.body.webSocketTransport;
    expect(t.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/agent-api\/ws\?token=/);
    expect(t.transportLifeTimeInSeconds).toBe(ADVISOR_TRANSPORT_LIFETIME_SECONDS);
    expect(Date.parse(t.expiry) - before).toBeGreaterThanOrEqual(100_000);
    expect(Date.parse(t.expiry) - Date.now()).toBeLessThanOrEqual(100_000);
  });

  it("is refused without a signed-in advisor (AccessDeniedException)", async () => {
    const none = await api<{ __type: string }>(centre, AgentApiPath.WebSocketTransport, null);
    expect(none.status).toBe(403);
    expect(none.body.__type).toBe("AccessDeniedException");
    const wrong = await api(centre, AgentApiPath.WebSocketTransport, "not-a-session");
    expect(wrong.status).toBe(403);
  });

  it("refuses a websocket URL whose token was forged", async () => {
    const url = centre.url.replace(/^http/, "ws") + `${AgentApiPath.WebSocket}?token=abc.def`;
    await expect(FrameClient.open(url)).rejects.toThrow("unexpected response 403");
  });

  it("opens only from the console's own origin when a browser names one (a page elsewhere gets 403)", async () => {
    const url = async () =>
      (await api<WebSocketTransportResponse>(centre, AgentApiPath.WebSocketTransport, token)).body
        .webSocketTransport.url;
    await expect(
      FrameClient.open(await url(), { headers: { origin: "https://evil.example" } }),
    ).rejects.toThrow("unexpected response 403");
    const own = await FrameClient.open(await url(), { headers: { origin: centre.url } });
    sockets.push(own);
    own.send({ topic: "aws/subscribe", content: { topics: ["aws/chat"] } });
    await own.waitFor((f) => f.topic === "aws/subscribe");
  });

  it("refuses a websocket upgrade or a plain GET with no token at all (403, not 500)", async () => {
    const url = centre.url.replace(/^http/, "ws") + AgentApiPath.WebSocket;
    await expect(FrameClient.open(url)).rejects.toThrow("unexpected response 403");
    const plain = await fetch(centre.url + AgentApiPath.WebSocket);
    expect(plain.status).toBeLessThan(500);
  });
});

describe("the advisor websocket", () => {
  it("answers subscribe, heartbeat and deep heartbeat as the participant websocket does", async () => {
    const socket = await advisorSocket();
    expect(socket.frames[0]).toEqual({
      topic: "aws/subscribe",
      content: { status: "success", topics: ["aws/chat"] },
    });
    socket.send({ topic: "aws/heartbeat" });
    socket.send({ topic: "aws/ping" });
    await socket.waitFor((f) => f.topic === "aws/heartbeat");
    expect(await socket.waitFor((f) => f.topic === "aws/ping")).toEqual({
      topic: "aws/ping",
      statusCode: 200,
      statusContent: "OK",
    });
  });

  it("delivers the items of a contact accepted after the socket opened, from the agent's joining on", async () => {
    const socket = await advisorSocket();
    const customer = await queuedCustomer(centre, token);
    const chat = await accept(centre, token, customer.contactId);
    const joined = await socket.waitForItem(
      (i) =>
        i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantId === chat.ParticipantId,
    );
    expect(joined.ContactId).toBe(customer.contactId);
    await customer.say("Where is my parcel?");
    const message = await socket.waitForItem((i) => i.Content === "Where is my parcel?");
    expect(message.ParticipantRole).toBe("CUSTOMER");
    const frame = socket.frames.find(
      (f) => f.topic === "aws/chat" && String(f.content).includes("Where is my parcel?"),
    );
    expect(typeof frame?.content).toBe("string");
  });

  it("carries the items of every contact the advisor holds on one socket, and no one else's", async () => {
    const first = await queuedCustomer(centre, token, "Ada");
    await accept(centre, token, first.contactId);
    const socket = await advisorSocket();
    const second = await queuedCustomer(centre, token, "Bob");
    await accept(centre, token, second.contactId);
    const stranger = await queuedCustomer(centre, token, "Eve");
    await first.say("from Ada");
    await second.say("from Bob");
    await stranger.say("from Eve");
    await socket.waitForItem((i) => i.Content === "from Ada");
    await socket.waitForItem((i) => i.Content === "from Bob");
    await centre.built.deps.centre.postMessage(first.contactId, first.participantId, {
      contentType: ContentType.TEXT_PLAIN,
      content: "marker",
    });
    await socket.waitForItem((i) => i.Content === "marker");
    const contacts = new Set(socket.items().map((i) => i.ContactId));
    expect(contacts).toContain(first.contactId);
    expect(contacts).toContain(second.contactId);
    expect(contacts).not.toContain(stranger.contactId);
  });

  it("stays open when one of the advisor's chats ends, and delivers that chat's chat.ended", async () => {
    const socket = await advisorSocket();
    const first = await queuedCustomer(centre, token, "Ada");
    await accept(centre, token, first.contactId);
    const second = await queuedCustomer(centre, token, "Bob");
    await accept(centre, token, second.contactId);
    const ended = await api(centre, agentContactPath(AgentApiPath.End, first.contactId), token);
    expect(ended.status).toBe(200);
    const chatEnded = await socket.waitForItem((i) => i.ContentType === ContentType.CHAT_ENDED);
    expect(chatEnded.ContactId).toBe(first.contactId);
    await second.say("still here");
    await socket.waitForItem((i) => i.Content === "still here");
    expect(socket.closed).toBeNull();
  });
});
