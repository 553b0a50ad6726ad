import { describe, expect, it } from "vitest";
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import { eventForContentType, eventForItem } from "./event-mapping.js";

const item = (overrides: Partial<Item>): Item => ({
  AbsoluteTime: "t",
  Id: "i",
  Type: ItemType.EVENT,
  ...overrides,
});

describe("incoming message content types map to events (docs/product.md §4, docs/protocol.md §7)", () => {
  it.each([
    [ContentType.TYPING, "typing"],
    [ContentType.PARTICIPANT_IDLE, "participantIdle"],
    [ContentType.PARTICIPANT_RETURNED, "participantReturned"],
    [ContentType.PARTICIPANT_AUTO_DISCONNECTION, "autoDisconnection"],
    [ContentType.PARTICIPANT_INVITED, "participantInvited"],
    [ContentType.CHAT_REHYDRATED, "chatRehydrated"],
    [ContentType.PARTICIPANT_DISPLAY_NAME_UPDATED, "participantDisplayNameUpdated"],
    [ContentType.AUTHENTICATION_INITIATED, "authenticationEvent"],
  ])("%s has its own event (%s)", (contentType, event) => {
    expect(eventForContentType(contentType)).toBe(event);
  });

  it.each([
    ContentType.TEXT_PLAIN,
    ContentType.TEXT_MARKDOWN,
    ContentType.INTERACTIVE_MESSAGE,
    ContentType.PARTICIPANT_JOINED,
    ContentType.PARTICIPANT_LEFT,
    ContentType.CHAT_ENDED,
    ContentType.TRANSFER_SUCCEEDED,
    ContentType.TRANSFER_FAILED,
    ContentType.CONNECTION_ACKNOWLEDGED,
    ContentType.WORKFLOW_CANCELLED,
    undefined,
  ])("all other types are incoming messages (%s)", (contentType) => {
    expect(eventForContentType(contentType)).toBe("message");
  });

  it("attachments (no ContentType) are incoming messages", () => {
    expect(eventForItem(item({ Type: ItemType.ATTACHMENT }), "me")).toBe("message");
  });

  it("read and delivered receipt events without message metadata are dropped", () => {
    expect(eventForItem(item({ ContentType: ContentType.READ_RECEIPT }), "me")).toBeNull();
    expect(eventForItem(item({ ContentType: ContentType.DELIVERED_RECEIPT }), "me")).toBeNull();
  });

  it("a metadata item with ReadTimestamp is a read receipt, with only DeliveredTimestamp a delivered receipt", () => {
    const meta = (receipt: object) =>
      item({ Type: "MESSAGEMETADATA", MessageMetadata: { MessageId: "m", Receipts: [receipt] } });
    expect(
      eventForItem(
        meta({ ReadTimestamp: "t", DeliveredTimestamp: "t", RecipientParticipantId: "other" }),
        "me",
      ),
    ).toBe("readReceipt");
    expect(
      eventForItem(meta({ DeliveredTimestamp: "t", RecipientParticipantId: "other" }), "me"),
    ).toBe("deliveredReceipt");
    expect(eventForItem(meta({ RecipientParticipantId: "other" }), "me")).toBeNull();
    expect(
      eventForItem(meta({ ReadTimestamp: "t", RecipientParticipantId: "me" }), "me"),
    ).toBeNull();
  });
});
