/** JSON schemas of the widget service and gateway bodies (shapes in @chat-widget/protocol gateway.ts). */
import { ContentType, Limits, SEND_MESSAGE_CONTENT_TYPES } from "@chat-widget/protocol";
import { MAX_CHAT_DURATION_MINUTES, MIN_CHAT_DURATION_MINUTES } from "../contact-centre/expiry.js";

const id = { type: "string", minLength: 1, maxLength: 256 } as const;

export const MAX_ATTRIBUTES = 50;
export const ATTRIBUTE_VALUE_MAX = Limits.TEXT_CONTENT_MAX;

/** An attributes map: at most 50 keys of 1–128 characters, string values up to 1,024. */
function attributesSchema() {
  return {
    type: "object",
    maxProperties: MAX_ATTRIBUTES,
    propertyNames: { minLength: 1, maxLength: 128 },
    additionalProperties: { type: "string", maxLength: ATTRIBUTE_VALUE_MAX },
  } as const;
}

export const startChatBody = {
  type: "object",
  required: ["ParticipantDetails", "ContactFlowId", "InstanceId"],
  properties: {
    ParticipantDetails: {
      type: "object",
      required: ["DisplayName"],
      properties: { DisplayName: { type: "string", minLength: 1, maxLength: 256 } },
    },
    ContactFlowId: { type: "string", minLength: 1, maxLength: 500 },
    InstanceId: { type: "string", minLength: 1, maxLength: 100 },
    SupportedMessagingContentTypes: {
      type: "array",
      maxItems: 10,
      // What StartChatContact accepts: the send types and the interactive message type.
      items: {
        type: "string",
        enum: [...SEND_MESSAGE_CONTENT_TYPES, ContentType.INTERACTIVE_MESSAGE],
      },
    },
    Jwt: { type: "string", minLength: 1, maxLength: 8192 },
    InitialMessage: {
      type: "object",
      required: ["ContentType", "Content"],
      properties: {
        ContentType: { type: "string", enum: [ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN] },
        Content: { type: "string", minLength: 1, maxLength: Limits.TEXT_CONTENT_MAX },
      },
    },
    Attributes: attributesSchema(),
    ChatDurationInMinutes: {
      type: "integer",
      minimum: MIN_CHAT_DURATION_MINUTES,
      maximum: MAX_CHAT_DURATION_MINUTES,
    },
    PersistentChat: {
      type: "object",
      required: ["RehydrationType", "SourceContactId"],
      properties: {
        RehydrationType: { type: "string", enum: ["ENTIRE_PAST_SESSION", "FROM_SEGMENT"] },
        SourceContactId: id,
        ContinuationToken: { type: "string", minLength: 1, maxLength: 256 },
      },
    },
  },
} as const;

export const discussedOrderNumberBody = {
  type: "object",
  required: ["InstanceId", "InitialContactId", "Attributes"],
  properties: {
    InstanceId: { type: "string", minLength: 1, maxLength: 100 },
    InitialContactId: id,
    Attributes: attributesSchema(),
  },
} as const;
