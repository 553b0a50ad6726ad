/** Fan-out messages that keep every process's agent consoles (SSE streams) up to date. */
export const AGENT_CHANNEL = "agent-api";

export type AgentChannelMessage =
  /** The queue changed: every console refreshes it. */
  | { kind: "queue" }
  /** One advisor's active chats changed. */
  | { kind: "chats"; advisorId: string };

export function isAgentChannelMessage(v: unknown): v is AgentChannelMessage {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  return m.kind === "queue" || (m.kind === "chats" && typeof m.advisorId === "string");
}
