/**
 * A small real participant service for integration tests: node `http` + `ws` on 127.0.0.1,
 * port 0, one contact, speaking participant-protocol.md (HTTP operations, aws/subscribe,
 * aws/heartbeat, aws/ping, aws/chat frames). Tests can drop sockets, hold reconnects and add
 * items that only the transcript holds (as if sent while the customer was offline).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import {
  ContentType,
  ItemType,
  ParticipantPath,
  Topic,
  chatFrame,
  pingResponseFrame,
  subscribeResponseFrame,
  type GetTranscriptRequest,
  type Item,
  type WebSocketEnvelope,
} from "@chat-widget/protocol";

export interface LoopbackServerOptions {
  contactId?: string;
  participantId?: string;
  participantToken?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function startLoopbackParticipantServer(options: LoopbackServerOptions = {}) {
  const contactId = options.contactId ?? "contact-1";
  const participantId = options.participantId ?? "customer-1";
  const participantToken = options.participantToken ?? "participant-token-1";
  const transcript: Item[] = [];
  const sockets = new Set<WebSocket>();
  const connectionTokens = new Set<string>();
  const socketTokens = new Set<string>();
  let seq = 0;
  let ended = false;
  let held: Promise<void> | null = null;
  let release: (() => void) | null = null;
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  const base = Date.parse("2025-01-01T10:00:00.000Z");

  const record = (partial: Partial<Item>): Item => {
    seq += 1;
    const item: Item = {
      AbsoluteTime: new Date(base + seq * 1000).toISOString(),
      Id: `item-${seq}`,
      Type: ItemType.MESSAGE,
      ContactId: contactId,
      InitialContactId: contactId,
      ...partial,
    };
    if (item.Type !== ItemType.TYPING && item.ContentType !== ContentType.TYPING)
      transcript.push(item);
    return item;
  };
  const fanOut = (item: Item) => {
    for (const socket of sockets) socket.send(JSON.stringify(chatFrame(item)));
  };

  const server = createServer((req, res) => void handle(req, res));
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const token = new URL(req.url ?? "/", "http://x").searchParams.get("token") ?? "";
    if (!socketTokens.delete(token)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      ws.on("message", (data) => onFrame(ws, String(data)));
    });
  });

  function onFrame(ws: WebSocket, raw: string) {
    const frame = JSON.parse(raw) as WebSocketEnvelope;
    if (frame.topic === Topic.SUBSCRIBE) {
      const topics = (frame.content as { topics: string[] }).topics;
      ws.send(JSON.stringify(subscribeResponseFrame("success", topics)));
    } else if (frame.topic === Topic.HEARTBEAT) ws.send(JSON.stringify({ topic: Topic.HEARTBEAT }));
    else if (frame.topic === Topic.PING) ws.send(JSON.stringify(pingResponseFrame(200)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += String(chunk);
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    const path = req.url ?? "";
    requests.push({ path, body });
    const bearer = String(req.headers["x-amz-bearer"] ?? "");
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const deny = () => reply(403, { __type: "AccessDeniedException", message: "Access denied" });

    if (path === ParticipantPath.CreateParticipantConnection) {
      if (held) await held;
      if (ended || bearer !== participantToken) return deny();
      const connectionToken = `conn-${++seq}`;
      const socketToken = `ws-${seq}`;
      connectionTokens.add(connectionToken);
      socketTokens.add(socketToken);
      const { port } = server.address() as AddressInfo;
      return reply(200, {
        Websocket: {
          Url: `ws://127.0.0.1:${port}/ws?token=${socketToken}`,
          ConnectionExpiry: new Date(Date.now() + 100_000).toISOString(),
        },
        ConnectionCredentials: {
          ConnectionToken: connectionToken,
          Expiry: new Date(Date.now() + DAY_MS).toISOString(),
        },
      });
    }
    if (!connectionTokens.has(bearer)) return deny();
    const own = {
      ParticipantId: participantId,
      ParticipantRole: "CUSTOMER",
      DisplayName: "Customer",
    };
    switch (path) {
      case ParticipantPath.SendMessage: {
        const item = record({
          ...own,
          Content: String(body.Content),
          ContentType: String(body.ContentType),
        });
        fanOut(item);
        return reply(200, { Id: item.Id, AbsoluteTime: item.AbsoluteTime });
      }
      case ParticipantPath.SendEvent: {
        const item = record({
          ...own,
          Type: ItemType.EVENT,
          ContentType: String(body.ContentType),
        });
        fanOut(item);
        return reply(200, { Id: item.Id, AbsoluteTime: item.AbsoluteTime });
      }
      case ParticipantPath.GetTranscript:
        return reply(200, readTranscript(body));
      case ParticipantPath.DisconnectParticipant: {
        fanOut(record({ ...own, Type: ItemType.EVENT, ContentType: ContentType.PARTICIPANT_LEFT }));
        fanOut(record({ Type: ItemType.EVENT, ContentType: ContentType.CHAT_ENDED }));
        ended = true;
        return reply(200, {});
      }
      default:
        return reply(404, { __type: "ResourceNotFoundException", message: "no such operation" });
    }
  }

  function readTranscript(request: GetTranscriptRequest) {
    const size = request.MaxResults ?? 10;
    const startId = request.StartPosition?.Id;
    if (startId) {
      const from = request.NextToken
        ? Number(request.NextToken)
        : Math.max(
            0,
            transcript.findIndex((i) => i.Id === startId),
          );
      const page = transcript.slice(from, from + size);
      const next = from + size < transcript.length ? String(from + size) : undefined;
      return {
        InitialContactId: contactId,
        Transcript: page,
        ...(next ? { NextToken: next } : {}),
      };
    }
    return { InitialContactId: contactId, Transcript: transcript.slice(-size) };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    chatDetails: {
      ContactId: contactId,
      ParticipantId: participantId,
      ParticipantToken: participantToken,
    },
    transcript,
    requests,
    get openSockets() {
      return sockets.size;
    },
    /** An item from the agent: stored, and sent to the open sockets unless `fanOut` is false. */
    agentSays(text: string, fanOutNow = true): Item {
      const item = record({
        ParticipantId: "agent-1",
        ParticipantRole: "AGENT",
        DisplayName: "Sam",
        Content: text,
        ContentType: ContentType.TEXT_PLAIN,
      });
      if (fanOutNow) fanOut(item);
      return item;
    },
    addEvent(contentType: string, partial: Partial<Item> = {}): Item {
      return record({ Type: ItemType.EVENT, ContentType: contentType, ...partial });
    },
    /** End the chat from the agent's side: chat.ended is stored and sent; connections are refused from now on. */
    endChat(): Item {
      const item = record({ Type: ItemType.EVENT, ContentType: ContentType.CHAT_ENDED });
      fanOut(item);
      ended = true;
      return item;
    },
    /** Close every socket abruptly (as a network drop does). */
    dropSockets(): void {
      for (const socket of sockets) socket.terminate();
    },
    /** Make CreateParticipantConnection wait until `releaseConnections()`. */
    holdConnections(): void {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    releaseConnections(): void {
      release?.();
      held = null;
    },
    async close(): Promise<void> {
      for (const socket of sockets) socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type LoopbackParticipantServer = Awaited<ReturnType<typeof startLoopbackParticipantServer>>;
