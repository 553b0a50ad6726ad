import type { MentionEvent } from "@chat-widget/protocol";

/** Fan-out messages that keep every process's agent consoles (SSE streams) up to date. */
export const AGENT_CHANNEL = "agent-api";

export type AgentChannelMessage =
  /** The queue changed: every console refreshes it. */
  | { kind: "queue" }
  /** One advisor's active chats changed. */
  | { kind: "chats"; advisorId: string }
  /**
   * The advisor was disabled, signed out or had their password reset: every process closes
   * their advisor websockets and event streams at once (issue 57).
   */
  | { kind: "revoked"; advisorId: string }
  /** The visitor of a chat the advisor holds reported another page (issue 60). */
  | { kind: "visitor"; advisorId: string; contactId: string }
  /** Another advisor mentioned this one in an internal note (issue 60). */
  | { kind: "mention"; advisorId: string; mention: MentionEvent };

export function isAgentChannelMessage(v: unknown): v is AgentChannelMessage {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  return (
    m.kind === "queue" ||
    ((m.kind === "chats" || m.kind === "revoked") && typeof m.advisorId === "string") ||
    (m.kind === "visitor" && typeof m.advisorId === "string" && typeof m.contactId === "string") ||
    (m.kind === "mention" && typeof m.advisorId === "string" && typeof m.mention === "object")
  );
}
