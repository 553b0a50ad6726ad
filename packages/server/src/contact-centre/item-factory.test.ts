import { describe, expect, it } from "vitest";
import {
  attachmentItem,
  eventItem,
  messageItem,
  receiptItem,
  sentMessage,
} from "./item-factory.js";
import type { Contact, Participant } from "./types.js";

const contact: Contact = {
  contactId: "c-1",
  initialContactId: "c-0",
  instanceId: "i",
  contactFlowId: "f",
  status: "active",
  attributes: {},
  supportedContentTypes: ["text/plain"],
  createdAt: "2026-11-29T00:00:00.000Z",
  endedAt: null,
};
const customer: Participant = {
  participantId: "p-1",
  contactId: "c-1",
  role: "CUSTOMER",
  displayName: "Ada",
  connectedAt: null,
  leftAt: null,
};
const bot: Participant = { ...customer, participantId: "p-2", role: "SYSTEM", displayName: "Bot" };
const AT = "2026-11-29T10:00:00.000Z";
/** Field runs of the wire's order: every item starts and ends so; a said item names its speaker. */
const STARTS = ["Id", "AbsoluteTime", "Type"];
const SAID = ["ParticipantId", "DisplayName", "ParticipantRole"];
const ENDS = ["ContactId", "InitialContactId"];

// The wire writes an item's fields in the order it was built: the same for every item kind.
describe("item factory", () => {
  it("builds a message with its fields in the wire's order, Content only when given", () => {
    const item = messageItem(contact, customer, AT, "text/plain", "Hello");
    expect(Object.keys(item)).toEqual([...STARTS, "ContentType", "Content", ...SAID, ...ENDS]);
    expect(item).toMatchObject({
      AbsoluteTime: AT,
      Type: "MESSAGE",
      ContentType: "text/plain",
      Content: "Hello",
      ParticipantId: "p-1",
      DisplayName: "Ada",
      ParticipantRole: "CUSTOMER",
      ContactId: "c-1",
      InitialContactId: "c-0",
    });
    expect(item.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect("Content" in messageItem(contact, customer, AT, "text/plain", undefined)).toBe(false);
  });

  it("gives each item its own Id", () => {
    const a = messageItem(contact, customer, AT, "text/plain", "a");
    const b = messageItem(contact, customer, AT, "text/plain", "a");
    expect(a.Id).not.toBe(b.Id);
  });

  it("builds an event with or without a participant", () => {
    const joined = eventItem(
      contact,
      customer,
      AT,
      "application/vnd.amazonaws.connect.event.participant.joined",
    );
    expect(Object.keys(joined)).toEqual([...STARTS, "ContentType", ...SAID, ...ENDS]);
    const ended = eventItem(
      contact,
      null,
      AT,
      "application/vnd.amazonaws.connect.event.chat.ended",
      "{}",
    );
    expect(Object.keys(ended)).toEqual([...STARTS, "ContentType", "Content", ...ENDS]);
    expect(ended.Type).toBe("EVENT");
  });

  it("builds an attachment and a receipt", () => {
    const file = attachmentItem(contact, customer, AT, {
      attachmentId: "a-1",
      name: "cv.pdf",
      contentType: "application/pdf",
    });
    expect(Object.keys(file)).toEqual([...STARTS, "Attachments", ...SAID, ...ENDS]);
    expect(file.Attachments).toEqual([
      {
        ContentType: "application/pdf",
        AttachmentId: "a-1",
        AttachmentName: "cv.pdf",
        Status: "APPROVED",
      },
    ]);
    const read = receiptItem(contact, customer, AT, "m-1", "read");
    expect(Object.keys(read)).toEqual([...STARTS, "ContentType", "MessageMetadata", ...ENDS]);
    expect(read.MessageMetadata).toEqual({
      MessageId: "m-1",
      Receipts: [{ ReadTimestamp: AT, RecipientParticipantId: "p-1" }],
    });
  });

  it("gives the flow's message its own name and Id, and a completed stream its metadata", () => {
    const named = sentMessage(contact, bot, AT, {
      contentType: "text/plain",
      content: "Hi",
      displayName: "Helper",
      id: "own-1",
    });
    expect(named).toMatchObject({ Id: "own-1", DisplayName: "Helper", ParticipantRole: "SYSTEM" });
    const done = sentMessage(contact, bot, AT, {
      contentType: "text/plain",
      content: "All of it",
      completes: "s-1",
    });
    expect(done).toMatchObject({
      Id: "s-1",
      MessageMetadata: { MessageId: "s-1", MessageCompleted: true },
    });
    // A customer cannot name itself or choose its Id.
    const plain = sentMessage(contact, customer, AT, {
      contentType: "text/plain",
      content: "x",
      displayName: "Admin",
      id: "mine",
    });
    expect(plain).toMatchObject({ DisplayName: "Ada" });
    expect(plain.Id).not.toBe("mine");
  });
});
