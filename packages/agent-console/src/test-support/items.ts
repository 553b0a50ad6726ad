/** Transcript items and chat details for tests. */
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import type { ChatInfo } from "../state/chat-state.js";

export const ADVISOR_PARTICIPANT = "agent-p1";

export const chatInfo = (contactId = "c1", extra: Partial<ChatInfo> = {}): ChatInfo => ({
  ContactId: contactId,
  InitialContactId: contactId,
  ParticipantId: ADVISOR_PARTICIPANT,
  ParticipantToken: `token-${contactId}`,
  CustomerName: "Alex Morgan",
  Attributes: { orderNumber: "A-10042", customerName: "Alex Morgan" },
  AttributeSources: {},
  ...extra,
});

let seconds = 0;
const nextTime = () => new Date(Date.UTC(2026, 0, 15, 10, 0, seconds++)).toISOString();

export const customerMessage = (id: string, content: string, contactId = "c1"): Item => ({
  Id: id,
  Type: ItemType.MESSAGE,
  ContentType: ContentType.TEXT_PLAIN,
  Content: content,
  AbsoluteTime: nextTime(),
  ParticipantId: "cust-p1",
  ParticipantRole: "CUSTOMER",
  DisplayName: "Customer",
  ContactId: contactId,
  InitialContactId: contactId,
});

export const advisorMessage = (id: string, content: string, contactId = "c1"): Item => ({
  ...customerMessage(id, content, contactId),
  ContentType: ContentType.TEXT_MARKDOWN,
  ParticipantId: ADVISOR_PARTICIPANT,
  ParticipantRole: "AGENT",
  DisplayName: "Sam",
});

export const botMessage = (id: string, content: string, contactId = "c1"): Item => ({
  ...customerMessage(id, content, contactId),
  ParticipantId: "bot-p1",
  ParticipantRole: "SYSTEM",
  DisplayName: "BOT",
});

export const event = (
  id: string,
  contentType: string,
  role = "CUSTOMER",
  name = "Customer",
  contactId = "c1",
): Item => ({
  Id: id,
  Type: ItemType.EVENT,
  ContentType: contentType,
  AbsoluteTime: nextTime(),
  ParticipantId: role === "AGENT" ? ADVISOR_PARTICIPANT : "cust-p1",
  ParticipantRole: role,
  DisplayName: name,
  ContactId: contactId,
  InitialContactId: contactId,
});

export const receiptItem = (
  messageId: string,
  kind: "read" | "delivered",
  recipient = "cust-p1",
): Item => ({
  Id: `m-${messageId}-${kind}`,
  Type: ItemType.MESSAGE_METADATA,
  ContentType: "application/vnd.amazonaws.connect.event.message.metadata",
  AbsoluteTime: nextTime(),
  MessageMetadata: {
    MessageId: messageId,
    Receipts: [
      kind === "read"
        ? {
            ReadTimestamp: nextTime(),
            DeliveredTimestamp: nextTime(),
            RecipientParticipantId: recipient,
          }
        : { DeliveredTimestamp: nextTime(), RecipientParticipantId: recipient },
    ],
  },
});
