/** Content types of the participant protocol, exactly as they go on the wire (docs/protocol.md §7). */

const EVENT = "application/vnd.amazonaws.connect.event." as const;

export const ContentType = {
  TEXT_PLAIN: "text/plain",
  TEXT_MARKDOWN: "text/markdown",
  TEXT_CSV: "text/csv",
  APPLICATION_JSON: "application/json",
  APPLICATION_PDF: "application/pdf",
  APPLICATION_DOC: "application/msword",
  APPLICATION_DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  APPLICATION_XLS: "application/vnd.ms-excel",
  APPLICATION_XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  APPLICATION_PPT: "application/vnd.ms-powerpoint",
  APPLICATION_PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  IMAGE_JPG: "image/jpeg",
  IMAGE_PNG: "image/png",
  IMAGE_HEIC: "image/heic",
  AUDIO_WAV: "audio/wav",
  AUDIO_X_WAV: "audio/x-wav",
  AUDIO_VND_WAVE: "audio/vnd.wave",
  VIDEO_QUICKTIME: "video/quicktime",
  VIDEO_MP4: "video/mp4",
  TEXT_RICHTEXT: "text/richtext",
  TEXT_RTF: "text/rtf",
  APPLICATION_RTF: "application/rtf",
  APPLICATION_X_RTF: "application/x-rtf",
  INTERACTIVE_MESSAGE: "application/vnd.amazonaws.connect.message.interactive",
  INTERACTIVE_RESPONSE: "application/vnd.amazonaws.connect.message.interactive.response",

  TYPING: `${EVENT}typing`,
  READ_RECEIPT: `${EVENT}message.read`,
  DELIVERED_RECEIPT: `${EVENT}message.delivered`,
  MESSAGE_METADATA: `${EVENT}message.metadata`,
  PARTICIPANT_JOINED: `${EVENT}participant.joined`,
  PARTICIPANT_LEFT: `${EVENT}participant.left`,
  PARTICIPANT_ACTIVE: `${EVENT}participant.active`,
  PARTICIPANT_INACTIVE: `${EVENT}participant.inactive`,
  PARTICIPANT_IDLE: `${EVENT}participant.idle`,
  PARTICIPANT_RETURNED: `${EVENT}participant.returned`,
  PARTICIPANT_INVITED: `${EVENT}participant.invited`,
  PARTICIPANT_AUTO_DISCONNECTION: `${EVENT}participant.autodisconnection`,
  PARTICIPANT_DISPLAY_NAME_UPDATED: `${EVENT}participant.displayname.updated`,
  TRANSFER_SUCCEEDED: `${EVENT}transfer.succeeded`,
  TRANSFER_FAILED: `${EVENT}transfer.failed`,
  CHAT_ENDED: `${EVENT}chat.ended`,
  CHAT_REHYDRATED: `${EVENT}chat.rehydrated`,
  CONNECTION_ACKNOWLEDGED: `${EVENT}connection.acknowledged`,
  AUTHENTICATION_INITIATED: `${EVENT}authentication.initiated`,
  AUTHENTICATION_SUCCESSFUL: `${EVENT}authentication.succeeded`,
  AUTHENTICATION_FAILED: `${EVENT}authentication.failed`,
  AUTHENTICATION_TIMEOUT: `${EVENT}authentication.timeout`,
  AUTHENTICATION_EXPIRED: `${EVENT}authentication.expired`,
  AUTHENTICATION_CANCELLED: `${EVENT}authentication.cancelled`,
  WORKFLOW_CANCELLED: `${EVENT}workflow.cancelled`,
} as const;

export type ContentTypeValue = (typeof ContentType)[keyof typeof ContentType];

/** Every `application/vnd.amazonaws.connect.event.*` type chatjs knows. */
export const EVENT_CONTENT_TYPES: readonly string[] = Object.values(ContentType).filter(
  (t) => t.startsWith(EVENT) && t !== ContentType.MESSAGE_METADATA,
);

/** Content types a participant may send with SendMessage (docs/protocol.md §1.4). */
export const SEND_MESSAGE_CONTENT_TYPES: readonly string[] = [
  ContentType.TEXT_PLAIN,
  ContentType.TEXT_MARKDOWN,
  ContentType.APPLICATION_JSON,
  ContentType.INTERACTIVE_RESPONSE,
];

/**
 * Content types a participant may send with SendEvent (docs/protocol.md §1.5). Not the connection
 * acknowledgement: the hosted service refuses it since 31 December 2024 (it is
 * CreateParticipantConnection's ConnectParticipant now).
 */
export const SEND_EVENT_CONTENT_TYPES: readonly string[] = [
  ContentType.TYPING,
  ContentType.READ_RECEIPT,
  ContentType.DELIVERED_RECEIPT,
];

/** Attachment MIME types (docs/product.md §3 "Accepted message content types", docs/protocol.md §7). */
export const ATTACHMENT_CONTENT_TYPES: readonly string[] = [
  ContentType.TEXT_PLAIN,
  ContentType.TEXT_CSV,
  ContentType.APPLICATION_DOC,
  ContentType.APPLICATION_DOCX,
  ContentType.APPLICATION_JSON,
  ContentType.APPLICATION_PDF,
  ContentType.APPLICATION_PPT,
  ContentType.APPLICATION_PPTX,
  ContentType.APPLICATION_XLS,
  ContentType.APPLICATION_XLSX,
  ContentType.IMAGE_JPG,
  ContentType.IMAGE_PNG,
  ContentType.IMAGE_HEIC,
  ContentType.AUDIO_WAV,
  ContentType.AUDIO_X_WAV,
  ContentType.AUDIO_VND_WAVE,
  ContentType.VIDEO_QUICKTIME,
  ContentType.VIDEO_MP4,
  ContentType.TEXT_RICHTEXT,
  ContentType.TEXT_RTF,
  ContentType.APPLICATION_RTF,
  ContentType.APPLICATION_X_RTF,
];

/**
 * Every content type the client's sendMessage/sendEvent validators accept (docs/product.md §3
 * "Accepted message content types": text, markdown, the attachment types, interactive
 * message and response, and the connect event types): the whole table but message metadata.
 */
export const KNOWN_CONTENT_TYPES: ReadonlySet<string> = /* @__PURE__ */ (() =>
  new Set<string>(Object.values(ContentType).filter((t) => t !== ContentType.MESSAGE_METADATA)))();

/** Content types the widget offers at chat start (docs/product.md §3 Start-chat request). */
export const WIDGET_SUPPORTED_MESSAGING_CONTENT_TYPES = [
  ContentType.TEXT_PLAIN,
  ContentType.TEXT_MARKDOWN,
] as const;

export function isEventContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && EVENT_CONTENT_TYPES.includes(contentType);
}
