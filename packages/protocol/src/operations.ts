/** Request and response bodies of every participant operation (docs/protocol.md §1.2–§1.10). */
import type { Item } from "./items.js";

export const ParticipantPath = {
  CreateParticipantConnection: "/participant/connection",
  SendMessage: "/participant/message",
  SendEvent: "/participant/event",
  GetTranscript: "/participant/transcript",
  StartAttachmentUpload: "/participant/start-attachment-upload",
  CompleteAttachmentUpload: "/participant/complete-attachment-upload",
  GetAttachment: "/participant/attachment",
  DisconnectParticipant: "/participant/disconnect",
  DescribeView: "/participant/views",
  GetAuthenticationUrl: "/participant/authentication-url",
  CancelParticipantAuthentication: "/participant/cancel-authentication",
} as const;
export type ParticipantOperation = keyof typeof ParticipantPath;

/** Header carrying the participant or connection token (sent lower case). */
export const BEARER_HEADER = "x-amz-bearer";

/** The SDK model's ConnectionType; a chat has no WebRTC connection, so WEBRTC_CONNECTION alone is refused. */
export type ConnectionType = "WEBSOCKET" | "CONNECTION_CREDENTIALS" | "WEBRTC_CONNECTION";

export interface CreateParticipantConnectionRequest {
  Type?: ConnectionType[];
  ConnectParticipant?: boolean;
}
export interface WebsocketInfo {
  Url: string;
  ConnectionExpiry: string;
}
export interface ConnectionCredentials {
  ConnectionToken: string;
  Expiry: string;
}
export interface CreateParticipantConnectionResponse {
  Websocket?: WebsocketInfo;
  ConnectionCredentials?: ConnectionCredentials;
}

export interface SendMessageRequest {
  ContentType: string;
  Content: string;
  ClientToken?: string;
}
export interface SendMessageResponse {
  Id: string;
  AbsoluteTime: string;
}

export interface SendEventRequest {
  ContentType: string;
  Content?: string;
  ClientToken?: string;
}
export type SendEventResponse = SendMessageResponse;

export type ScanDirection = "FORWARD" | "BACKWARD";
export type SortOrder = "ASCENDING" | "DESCENDING";
export interface StartPosition {
  Id?: string;
  AbsoluteTime?: string;
  MostRecent?: number;
}
export interface GetTranscriptRequest {
  ContactId?: string;
  MaxResults?: number;
  NextToken?: string;
  ScanDirection?: ScanDirection;
  SortOrder?: SortOrder;
  StartPosition?: StartPosition;
}
export interface GetTranscriptResponse {
  InitialContactId?: string;
  Transcript: Item[];
  NextToken?: string;
}

export interface StartAttachmentUploadRequest {
  ContentType: string;
  AttachmentSizeInBytes: number;
  AttachmentName: string;
  ClientToken: string;
}
export interface UploadMetadata {
  Url: string;
  UrlExpiry: string;
  HeadersToInclude: Record<string, string>;
}
export interface StartAttachmentUploadResponse {
  AttachmentId: string;
  UploadMetadata: UploadMetadata;
}

export interface CompleteAttachmentUploadRequest {
  AttachmentIds: string[];
  ClientToken: string;
}
export type CompleteAttachmentUploadResponse = Record<string, never>;

export interface GetAttachmentRequest {
  AttachmentId: string;
  UrlExpiryInSeconds?: number;
}
export interface GetAttachmentResponse {
  Url: string;
  UrlExpiry: string;
  AttachmentSizeInBytes?: number;
}

export interface DisconnectParticipantRequest {
  ClientToken?: string;
}
export type DisconnectParticipantResponse = Record<string, never>;

export interface ViewContent {
  InputSchema?: string;
  Template?: string;
  Actions?: string[];
}
export interface View {
  Id: string;
  Arn: string;
  Name: string;
  Version: number;
  Content: ViewContent;
}
export interface DescribeViewResponse {
  View: View;
}

/** SessionId comes from the `authentication.initiated` event's Content (docs/protocol.md §1.10). */
export interface GetAuthenticationUrlRequest {
  SessionId: string;
  RedirectUri: string;
}
export interface GetAuthenticationUrlResponse {
  AuthenticationUrl?: string;
}
export interface CancelParticipantAuthenticationRequest {
  SessionId: string;
}
export type CancelParticipantAuthenticationResponse = Record<string, never>;

/** Body and response types of each operation, for typed HTTP clients and servers. */
export interface ParticipantOperations {
  CreateParticipantConnection: {
    request: CreateParticipantConnectionRequest;
    response: CreateParticipantConnectionResponse;
  };
  SendMessage: { request: SendMessageRequest; response: SendMessageResponse };
  SendEvent: { request: SendEventRequest; response: SendEventResponse };
  GetTranscript: { request: GetTranscriptRequest; response: GetTranscriptResponse };
  StartAttachmentUpload: {
    request: StartAttachmentUploadRequest;
    response: StartAttachmentUploadResponse;
  };
  CompleteAttachmentUpload: {
    request: CompleteAttachmentUploadRequest;
    response: CompleteAttachmentUploadResponse;
  };
  GetAttachment: { request: GetAttachmentRequest; response: GetAttachmentResponse };
  DisconnectParticipant: {
    request: DisconnectParticipantRequest;
    response: DisconnectParticipantResponse;
  };
  DescribeView: { request: Record<string, never>; response: DescribeViewResponse };
  GetAuthenticationUrl: {
    request: GetAuthenticationUrlRequest;
    response: GetAuthenticationUrlResponse;
  };
  CancelParticipantAuthentication: {
    request: CancelParticipantAuthenticationRequest;
    response: CancelParticipantAuthenticationResponse;
  };
}
