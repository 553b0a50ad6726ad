/** Websocket envelope and topics (docs/protocol.md §3.2). */
import type { Item } from "./items.js";

export const Topic = {
  SUBSCRIBE: "aws/subscribe",
  UNSUBSCRIBE: "aws/unsubscribe",
  HEARTBEAT: "aws/heartbeat",
  PING: "aws/ping",
  CHAT: "aws/chat",
} as const;
export type TopicValue = (typeof Topic)[keyof typeof Topic];

/** Topics the websocket manager reserves for itself; applications may not send on them. */
export const RESERVED_TOPICS: readonly string[] = [
  Topic.SUBSCRIBE,
  Topic.UNSUBSCRIBE,
  Topic.HEARTBEAT,
  Topic.PING,
];

export interface WebSocketEnvelope {
  topic?: string;
  content?: unknown;
  contentType?: string;
  statusCode?: number;
  statusContent?: string;
  /** Gateway errors carry `message` and no topic. */
  message?: string;
  connectionId?: string;
  requestId?: string;
}

export interface SubscribeRequestContent {
  topics: string[];
}
export interface SubscribeResponseContent {
  status: "success" | "failure" | string;
  topics: string[];
}

export const subscribeFrame = (topics: string[]): WebSocketEnvelope => ({
  topic: Topic.SUBSCRIBE,
  content: { topics },
});
export const subscribeResponseFrame = (
  status: "success" | "failure",
  topics: string[],
): WebSocketEnvelope => ({ topic: Topic.SUBSCRIBE, content: { status, topics } });
export const heartbeatFrame = (): WebSocketEnvelope => ({ topic: Topic.HEARTBEAT });
export const pingFrame = (): WebSocketEnvelope => ({ topic: Topic.PING });
export const pingResponseFrame = (statusCode = 200): WebSocketEnvelope => ({
  topic: Topic.PING,
  statusCode,
  statusContent: statusCode === 200 ? "OK" : "ERROR",
});
/** An `aws/chat` frame: the item is serialised to a JSON *string* (double encoding). */
export const chatFrame = (item: Item): WebSocketEnvelope => ({
  topic: Topic.CHAT,
  contentType: "application/json",
  content: JSON.stringify(item),
});

export type ParsedFrame =
  | { kind: "empty" }
  | { kind: "invalid"; raw: string }
  | { kind: "frame"; frame: WebSocketEnvelope };

/** Parse one websocket text frame: empty frames are ignored, non-JSON is invalid. */
export function parseFrame(raw: string): ParsedFrame {
  if (raw.length === 0) return { kind: "empty" };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { kind: "invalid", raw };
    }
    return { kind: "frame", frame: parsed };
  } catch {
    return { kind: "invalid", raw };
  }
}
