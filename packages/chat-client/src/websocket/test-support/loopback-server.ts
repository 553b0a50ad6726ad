/**
 * A real `ws` server on 127.0.0.1 (port 0) that speaks docs/protocol.md §3.2: it answers aws/subscribe
 * with success, echoes aws/heartbeat, answers aws/ping with 200 "OK", and can push aws/chat
 * frames to subscribed sockets. Heartbeat answers can be switched off per connection.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { Topic, pingResponseFrame, subscribeResponseFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";

export interface ServerConnection {
  index: number;
  url: string;
  socket: WebSocket;
  received: WebSocketEnvelope[];
  subscribed: Set<string>;
  answerHeartbeats: boolean;
  closed: { code: number; reason: string } | null;
}

export async function startLoopbackServer() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(wss, "listening");
  const { port } = wss.address() as AddressInfo;
  const connections: ServerConnection[] = [];

  wss.on("connection", (socket, request) => {
    const connection: ServerConnection = {
      index: connections.length,
      url: request.url ?? "",
      socket,
      received: [],
      subscribed: new Set(),
      answerHeartbeats: true,
      closed: null,
    };
    connections.push(connection);
    const reply = (frame: WebSocketEnvelope) => socket.send(JSON.stringify(frame));
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as WebSocketEnvelope;
      connection.received.push(frame);
      if (frame.topic === Topic.SUBSCRIBE) {
        const topics = (frame.content as { topics: string[] }).topics;
        for (const topic of topics) connection.subscribed.add(topic);
        reply(subscribeResponseFrame("success", topics));
      } else if (frame.topic === Topic.HEARTBEAT) {
        if (connection.answerHeartbeats) reply({ topic: Topic.HEARTBEAT });
      } else if (frame.topic === Topic.PING) {
        reply(pingResponseFrame(200));
      }
    });
    socket.on("close", (code, reason) => {
      connection.closed = { code, reason: reason.toString() };
    });
  });

  return {
    port,
    urlFor: (token: string) => `ws://127.0.0.1:${port}/ws?token=${token}`,
    connections,
    /** Push an aws/chat frame to every open socket subscribed to aws/chat. */
    pushChat(frame: WebSocketEnvelope) {
      for (const c of connections) {
        if (c.closed === null && c.subscribed.has(Topic.CHAT)) c.socket.send(JSON.stringify(frame));
      }
    },
    async close() {
      for (const c of connections) c.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
