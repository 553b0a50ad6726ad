/**
 * Client frames of the websocket protocol (docs/protocol.md §3.2): subscribe, unsubscribe, heartbeat,
 * deep heartbeat (the store answers too, see frame-guard.ts). Shared by the participant and
 * advisor websockets.
 */
import {
  parseFrame,
  pingResponseFrame,
  subscribeResponseFrame,
  Topic,
  type WebSocketEnvelope,
} from "@chat-widget/protocol";
import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import type { FrameGuard } from "./frame-guard.js";

/** Topics a client may subscribe to. */
const SUBSCRIBABLE = new Set<string>([Topic.CHAT]);

export interface FrameTarget {
  id: string;
  socket: WebSocket;
  topics: Set<string>;
}

export function sendFrame(
  socket: WebSocket,
  frame: WebSocketEnvelope | Record<string, unknown>,
): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

function topicsOf(content: unknown): string[] | null {
  const topics = (content as { topics?: unknown } | null)?.topics;
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === "string")) return null;
  return topics;
}

/**
 * Answer one client frame; bad frames get a gateway-style error frame. Every ping is answered
 * (from the guard's cached store probe); any other frame only within its socket's budget.
 */
export async function answerFrame(
  target: FrameTarget,
  raw: string,
  isBinary: boolean,
  guard: FrameGuard,
): Promise<void> {
  const gatewayError = (message: string): void =>
    sendFrame(target.socket, { message, connectionId: target.id, requestId: randomUUID() });
  const parsed = isBinary ? null : parseFrame(raw);
  if (parsed?.kind === "frame" && parsed.frame.topic === Topic.PING) {
    sendFrame(target.socket, pingResponseFrame((await guard.probe.alive()) ? 200 : 500));
    return;
  }
  if (!guard.allow(target.id)) return;
  if (parsed === null) return gatewayError("Binary frames are not supported");
  if (parsed.kind === "empty") return;
  if (parsed.kind === "invalid") return gatewayError("Invalid frame: expected a JSON object");
  const frame = parsed.frame;
  switch (frame.topic) {
    case Topic.SUBSCRIBE: {
      const topics = topicsOf(frame.content);
      const accepted = (topics ?? []).filter((t) => SUBSCRIBABLE.has(t));
      for (const t of accepted) target.topics.add(t);
      sendFrame(
        target.socket,
        accepted.length > 0
          ? subscribeResponseFrame("success", accepted)
          : subscribeResponseFrame("failure", topics ?? []),
      );
      return;
    }
    case Topic.UNSUBSCRIBE: {
      const topics = (topicsOf(frame.content) ?? []).filter((t) => target.topics.delete(t));
      sendFrame(target.socket, {
        topic: Topic.UNSUBSCRIBE,
        content: { status: "success", topics },
      });
      return;
    }
    case Topic.HEARTBEAT:
      sendFrame(target.socket, { topic: Topic.HEARTBEAT });
      return;
    default:
      gatewayError("Forbidden");
  }
}
