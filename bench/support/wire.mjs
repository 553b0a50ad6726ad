// The load generator's own client: the Amazon Connect participant protocol spoken directly
// with fetch and `ws`, as the public API reference writes it (paths, X-Amz-Bearer, the aws/*
// websocket topics) — no code of ours, so what it measures is the wire, not our chat client.
// Plus the few calls of this product's gateway and agent API a chat needs to reach an advisor.
import { randomUUID } from "node:crypto";
import WebSocket from "ws";

const WAIT_MS = 60_000;
const HEARTBEAT_MS = 10_000;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base, path, { method = "POST", bearer, token, body } = {}) {
  const headers = { origin: base };
  if (bearer) headers["x-amz-bearer"] = bearer;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(base + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    const error = new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    error.status = response.status;
    throw error;
  }
  return text ? JSON.parse(text) : {};
}

/** The gateway's start-chat, as a widget calls it: the chat's participant token and ids. */
export async function startChat(base) {
  const answer = await call(base, "/gateway/start-chat", {
    body: {
      ParticipantDetails: { DisplayName: "Load" },
      ContactFlowId: "default-flow",
      InstanceId: "demo-instance",
      SupportedMessagingContentTypes: ["text/plain", "text/markdown"],
    },
  });
  return answer.data.startChatResult;
}

/** A participant's connection: CreateParticipantConnection, its websocket, aws/chat subscribed. */
export async function connectParticipant(base, participantToken) {
  const connection = await call(base, "/participant/connection", {
    bearer: participantToken,
    body: { Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"], ConnectParticipant: true },
  });
  const socket = new ChatSocket(connection.Websocket.Url);
  await socket.subscribed;
  return { socket, connectionToken: connection.ConnectionCredentials.ConnectionToken };
}

/** SendMessage: resolves with the stored item's Id once the service acknowledged it. */
export async function sendMessage(base, connectionToken, content) {
  const answer = await call(base, "/participant/message", {
    bearer: connectionToken,
    body: { ContentType: "text/plain", Content: content, ClientToken: randomUUID() },
  });
  return answer.Id;
}

/**
 * The first item matching, from the transcript or the websocket: items written before the
 * socket subscribed (the flow's greeting and menu) reach it only through GetTranscript.
 */
export async function waitForItem(base, connection, match) {
  const live = connection.socket.next(match);
  const { Transcript } = await call(base, "/participant/transcript", {
    bearer: connection.connectionToken,
    body: { MaxResults: 100, ScanDirection: "BACKWARD", SortOrder: "ASCENDING", StartPosition: {} },
  });
  const found = Transcript.find(match);
  if (!found) return live;
  live.catch(() => {});
  return found;
}

/** A websocket subscribed to aws/chat that hands every chat item to its listeners. */
export class ChatSocket {
  constructor(url) {
    this.listeners = new Set();
    this.ws = new WebSocket(url);
    this.subscribed = new Promise((resolve, reject) => {
      this.ws.once("open", () =>
        this.ws.send(JSON.stringify({ topic: "aws/subscribe", content: { topics: ["aws/chat"] } })),
      );
      this.ws.once("error", reject);
      this.ws.on("message", (data) => {
        const frame = JSON.parse(String(data));
        if (frame.topic === "aws/subscribe") {
          if (frame.content?.status === "success") resolve();
          else reject(new Error(`subscribe failed: ${String(data)}`));
        } else if (frame.topic === "aws/chat") {
          const item = JSON.parse(frame.content);
          for (const listener of this.listeners) listener(item);
        }
      });
    });
    this.heartbeat = setInterval(() => {
      if (this.ws.readyState === WebSocket.OPEN)
        this.ws.send(JSON.stringify({ topic: "aws/heartbeat" }));
    }, HEARTBEAT_MS);
  }

  /** The next item matching, within `ms`. */
  next(match, ms = WAIT_MS) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no matching item within ${ms} ms`));
      }, ms);
      const listener = (item) => {
        if (!match(item)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(item);
      };
      this.listeners.add(listener);
    });
  }

  close() {
    clearInterval(this.heartbeat);
    this.ws.terminate();
  }
}

/** An advisor of the agent API (password "demo"), Available. */
export async function signInAdvisor(base, username) {
  const { Token } = await call(base, "/agent-api/sign-in", {
    body: { Username: username, Password: "demo" },
  });
  await call(base, "/agent-api/availability", {
    method: "PUT",
    token: Token,
    body: { Availability: "Available" },
  });
  return Token;
}

/** Accepts the contact once the flow queued it; the advisor's participant token and ids. */
export async function acceptChat(base, advisorToken, contactId) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const queue = await call(base, "/agent-api/queue", { method: "GET", token: advisorToken });
    if (queue.Contacts.some((c) => c.ContactId === contactId)) break;
    if (Date.now() > deadline) throw new Error(`contact ${contactId} never queued`);
    await sleep(20);
  }
  return call(base, `/agent-api/contacts/${encodeURIComponent(contactId)}/accept`, {
    token: advisorToken,
  });
}

const isMenu = (item) =>
  item.ContentType === "application/vnd.amazonaws.connect.message.interactive";

/**
 * A chat held by an advisor: the visitor starts it, asks the demo flow's menu for an advisor,
 * the advisor accepts and connects; resolves once a probe of the visitor reached the advisor.
 */
export async function advisorChat(base, advisorToken) {
  const chat = await startChat(base);
  const customer = await connectParticipant(base, chat.ParticipantToken);
  await waitForItem(base, customer, isMenu);
  await sendMessage(base, customer.connectionToken, "Talk to an advisor");
  const accepted = await acceptChat(base, advisorToken, chat.ContactId);
  const advisor = await connectParticipant(base, accepted.ParticipantToken);
  const probe = `probe ${chat.ContactId}`;
  const arrived = advisor.socket.next((i) => i.Content === probe);
  await sendMessage(base, customer.connectionToken, probe);
  await arrived;
  return { contactId: chat.ContactId, customer, advisor };
}
