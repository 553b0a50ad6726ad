/** JSON schemas of the participant operations' bodies (docs/protocol.md §1.3–§1.10, limits §1.14). */
import { Limits } from "@chat-widget/protocol";

const str = (min: number, max: number) => ({ type: "string", minLength: min, maxLength: max });
const clientToken = str(0, Limits.CLIENT_TOKEN_MAX);

export const connectionBody = {
  type: "object",
  properties: {
    Type: {
      type: "array",
      minItems: 1,
      // WEBRTC_CONNECTION is in the SDK model's ConnectionType; we have no WebRTC calls, so it
      // is accepted and answered without a WebRTCConnection member (docs/wire-decisions.md).
      items: {
        type: "string",
        enum: ["WEBSOCKET", "CONNECTION_CREDENTIALS", "WEBRTC_CONNECTION"],
      },
    },
    ConnectParticipant: { type: "boolean" },
  },
} as const;

export const messageBody = {
  type: "object",
  required: ["ContentType", "Content"],
  properties: {
    ContentType: str(1, Limits.CONTENT_TYPE_MAX),
    Content: str(1, Limits.CONTENT_MAX),
    ClientToken: clientToken,
  },
} as const;

export const eventBody = {
  type: "object",
  required: ["ContentType"],
  properties: {
    ContentType: str(1, Limits.CONTENT_TYPE_MAX),
    Content: str(1, Limits.CONTENT_MAX),
    ClientToken: clientToken,
  },
} as const;

export const transcriptBody = {
  type: "object",
  properties: {
    ContactId: str(1, 256),
    // 0 asks for an empty page whose NextToken continues from the same place
    // (docs/wire-decisions.md).
    MaxResults: {
      type: "integer",
      minimum: Limits.MAX_RESULTS_MIN,
      maximum: Limits.MAX_RESULTS_MAX,
    },
    NextToken: str(1, Limits.NEXT_TOKEN_MAX),
    ScanDirection: { type: "string", enum: ["FORWARD", "BACKWARD"] },
    SortOrder: { type: "string", enum: ["ASCENDING", "DESCENDING"] },
    StartPosition: {
      type: "object",
      properties: {
        Id: str(1, 256),
        AbsoluteTime: str(1, 100),
        MostRecent: { type: "integer", minimum: 0, maximum: 100 },
      },
    },
  },
} as const;

export const startUploadBody = {
  type: "object",
  required: ["ContentType", "AttachmentSizeInBytes", "AttachmentName", "ClientToken"],
  properties: {
    ContentType: str(1, Limits.ATTACHMENT_CONTENT_TYPE_MAX),
    AttachmentSizeInBytes: { type: "integer", minimum: 1 },
    AttachmentName: str(1, Limits.ATTACHMENT_NAME_MAX),
    ClientToken: str(1, Limits.CLIENT_TOKEN_MAX),
  },
} as const;

export const completeUploadBody = {
  type: "object",
  required: ["AttachmentIds", "ClientToken"],
  properties: {
    AttachmentIds: { type: "array", minItems: 1, maxItems: 1, items: str(1, 256) },
    ClientToken: str(1, Limits.CLIENT_TOKEN_MAX),
  },
} as const;

export const getAttachmentBody = {
  type: "object",
  required: ["AttachmentId"],
  properties: {
    AttachmentId: str(1, 256),
    UrlExpiryInSeconds: {
      type: "integer",
      minimum: Limits.URL_EXPIRY_SECONDS_MIN,
      maximum: Limits.URL_EXPIRY_SECONDS_MAX,
    },
  },
} as const;

export const disconnectBody = {
  type: "object",
  properties: { ClientToken: clientToken },
} as const;

/** GetAuthenticationUrl / CancelParticipantAuthentication (§1.10): SessionId exactly 36 chars. */
export const SESSION_ID_LENGTH = 36;
export const REDIRECT_URI_MAX = 1024;
const sessionId = str(SESSION_ID_LENGTH, SESSION_ID_LENGTH);

export const authenticationUrlBody = {
  type: "object",
  required: ["SessionId", "RedirectUri"],
  properties: { SessionId: sessionId, RedirectUri: str(1, REDIRECT_URI_MAX) },
} as const;

export const cancelAuthenticationBody = {
  type: "object",
  required: ["SessionId"],
  properties: { SessionId: sessionId },
} as const;

export const viewParams = {
  type: "object",
  required: ["ViewToken"],
  properties: { ViewToken: str(1, 1000) },
} as const;

export const signedFileParams = {
  type: "object",
  required: ["attachmentId"],
  properties: { attachmentId: str(1, 256) },
} as const;

export const signedFileQuery = {
  type: "object",
  required: ["expires", "signature"],
  properties: { expires: { type: "integer" }, signature: str(1, 200) },
} as const;

export const websocketQuery = {
  type: "object",
  required: ["token"],
  properties: { token: str(1, Limits.TOKEN_MAX) },
} as const;
