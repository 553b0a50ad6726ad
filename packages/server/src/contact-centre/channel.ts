import type { Item } from "@chat-widget/protocol";

/** The fan-out channel every process of the contact centre listens on. */
export const CENTRE_CHANNEL = "contact-centre";

export type CentreMessage =
  /**
   * An item to deliver to every socket of the contact; `seq`, its place in the contact's stored
   * order, when it is stored (typing and streamed chunks are not).
   */
  | { kind: "item"; contactId: string; item: Item; seq?: number }
  /** Close the sockets of one participant, or of the whole contact. */
  | { kind: "close"; contactId: string; participantId?: string; reason: string };

export function isCentreMessage(value: unknown): value is CentreMessage {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.kind === "item" || v.kind === "close") && typeof v.contactId === "string";
}
