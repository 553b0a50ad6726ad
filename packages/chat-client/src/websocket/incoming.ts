/**
 * Reading one incoming websocket message (docs/product.md §5, docs/protocol.md §3.2): empty messages are ignored,
 * anything that is not a JSON object is logged as "Wrong message format" and dropped, gateway
 * error frames (no topic, a `message`) are logged. Only frames with a topic come back.
 */
import { parseFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import type { Logger } from "../env.js";

export type TopicFrame = WebSocketEnvelope & { topic: string };

export function readIncoming(data: unknown, logger: Logger): TopicFrame | null {
  if (typeof data !== "string") {
    logger.error("Wrong message format");
    return null;
  }
  const parsed = parseFrame(data);
  if (parsed.kind === "empty") return null;
  if (parsed.kind === "invalid") {
    logger.error("Wrong message format");
    return null;
  }
  const { frame } = parsed;
  if (typeof frame.topic === "string") return frame as TopicFrame;
  if (typeof frame.message === "string") logger.error("WebSocketManager: gateway error", frame);
  else logger.warn("WebSocketManager: frame without a topic ignored", frame);
  return null;
}
