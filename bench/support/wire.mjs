// The load generator's own client: the Amazon Connect participant protocol spoken directly
// with Node's http (chats.mjs's json, over kept-alive connections; SendMessage, the hot path,
// over http1.mjs's leaner client) and `ws`, as the public API reference writes it (paths,
// X-Amz-Bearer, the aws/* websocket topics) — no code of ours, so what it measures is the
// wire, not our chat client.
// The product's own gateway and agent API, which a chat needs to reach an advisor, come from
// the other benches' support (chats.mjs: startChat, Advisor).
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { answered, json as call, startChat } from "./chats.mjs";
import { post } from "./http1.mjs";

const WAIT_MS = 60_000;
/** How often a chat client sends aws/heartbeat (as amazon-connect-chatjs does). */
export const HEARTBEAT_MS = 10_000;

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

/**
 * SendMessage, over http1.mjs's lean client (the generator's hot path): resolves with the
 * stored item's Id once the service acknowledged it; a refusal rejects with its `status`.
 */
export async function sendMessage(base, connectionToken, content) {
  const path = "/participant/message";
  const body = JSON.stringify({
    ContentType: "text/plain",
    Content: content,
    ClientToken: randomUUID(),
  });
  const headers = { origin: base, "x-amz-bearer": connectionToken };
  const { status, body: answer } = await post(base, path, headers, body);
  return answered(path, status, answer).Id;
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

/** An open websocket to bench/load.mjs's bare relay (relay-process.mjs): `query` names its pair and role. */
export function relaySocket(url, query) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}/?${query}`);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
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
      let subscribing = true;
      this.ws.on("message", (data) => {
        // Once subscribed, a socket nobody listens to (a customer's own messages coming back)
        // costs the generator no parsing: the load it offers is not spent reading echoes.
        if (!subscribing && this.listeners.size === 0) return;
        const frame = JSON.parse(String(data));
        if (frame.topic === "aws/subscribe") {
          subscribing = false;
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

const isMenu = (item) =>
  item.ContentType === "application/vnd.amazonaws.connect.message.interactive";

/**
 * A chat held by an advisor: the visitor starts it on `base`, asks the demo flow's menu for an
 * advisor, the advisor accepts and connects (through the server it signed in to); resolves
 * once a probe of the visitor reached the advisor.
 */
export async function advisorChat(base, advisor) {
  const chat = await startChat(base);
  const customer = await connectParticipant(base, chat.ParticipantToken);
  await waitForItem(base, customer, isMenu);
  await sendMessage(base, customer.connectionToken, "Talk to an advisor");
  const accepted = await advisor.accept(chat.ContactId);
  const held = await connectParticipant(advisor.base, accepted.ParticipantToken);
  const probe = `probe ${chat.ContactId}`;
  const arrived = held.socket.next((i) => i.Content === probe);
  await sendMessage(base, customer.connectionToken, probe);
  await arrived;
  return { contactId: chat.ContactId, customer, advisor: held };
}
