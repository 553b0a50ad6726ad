/** Argument shapes of the session's operations (docs/product.md §3 "Operation options"), their checks and results. */
import type {
  GetTranscriptRequest,
  ScanDirection,
  SortOrder,
  StartPosition,
} from "@chat-widget/protocol";
import { illegalArgument } from "../core/errors.js";
import { assertKnownContentType, assertNotNull, isObject } from "../core/validation.js";
import type { AttachmentInput } from "./attachments.js";
import type { ReceiptContentType } from "./receipts.js";

/** What every successful operation resolves with: the response (plus `$metadata`) and your metadata. */
export interface ChatResult<T> {
  data: T;
  metadata: unknown;
}

export interface ConnectArgs {
  metadata?: unknown;
}

export interface SendMessageArgs {
  message: string;
  contentType: string;
  metadata?: unknown;
  /** The message's ClientToken, kept by the caller to send it again after a reload (default: a new UUID). */
  clientToken?: string;
}

export interface SendEventArgs {
  contentType: string;
  /** For receipts: a JSON string (or object) with `messageId` and optional `disableThrottle`. */
  content?: string | Record<string, unknown> | null;
  metadata?: unknown;
}

export interface SendMessageReceiptArgs {
  contentType: ReceiptContentType;
  messageId: string;
  /** Skip the throttle window. */
  disableThrottle?: boolean;
  metadata?: unknown;
}

export interface SendAttachmentArgs {
  attachment: AttachmentInput;
  metadata?: unknown;
}

export interface DownloadAttachmentArgs {
  attachmentId: string;
  metadata?: unknown;
}

export interface TranscriptStartPosition {
  id?: string;
  absoluteTime?: string;
  mostRecent?: number;
  Id?: string;
  AbsoluteTime?: string;
  MostRecent?: number;
}

export interface GetTranscriptArgs {
  /** Default `{}`. */
  startPosition?: TranscriptStartPosition;
  /** Default BACKWARD. */
  scanDirection?: ScanDirection;
  /** Default ASCENDING. */
  sortOrder?: SortOrder;
  /** Default 15. */
  maxResults?: number;
  nextToken?: string;
  contactId?: string;
  metadata?: unknown;
}

export interface DescribeViewArgs {
  viewToken: string;
  metadata?: unknown;
}

/** Defaults of getTranscript (docs/product.md §3). */
export const TRANSCRIPT_DEFAULTS = {
  maxResults: 15,
  scanDirection: "BACKWARD",
  sortOrder: "ASCENDING",
} as const;

/** sendMessage requires a string message and a known content type (docs/product.md §5). */
export function validateSendMessage(args: SendMessageArgs): void {
  assertNotNull(args, "args");
  if (typeof args.message !== "string") {
    throw illegalArgument(`${String(args.message)} is not a valid message`, args.message);
  }
  assertKnownContentType(args.contentType);
}

/** The GetTranscript body for the caller's options, with the spec's defaults. */
export function transcriptRequest(args: GetTranscriptArgs): GetTranscriptRequest {
  const input = args.startPosition;
  const position: StartPosition = {};
  const id = input?.Id ?? input?.id;
  const time = input?.AbsoluteTime ?? input?.absoluteTime;
  const mostRecent = input?.MostRecent ?? input?.mostRecent;
  if (id !== undefined) position.Id = id;
  if (time !== undefined) position.AbsoluteTime = time;
  if (mostRecent !== undefined) position.MostRecent = mostRecent;
  const request: GetTranscriptRequest = {
    MaxResults: args.maxResults ?? TRANSCRIPT_DEFAULTS.maxResults,
    ScanDirection: args.scanDirection ?? TRANSCRIPT_DEFAULTS.scanDirection,
    SortOrder: args.sortOrder ?? TRANSCRIPT_DEFAULTS.sortOrder,
    StartPosition: position,
  };
  if (args.nextToken) request.NextToken = args.nextToken;
  if (args.contactId) request.ContactId = args.contactId;
  return request;
}

/** A receipt's content (JSON string or object) as an object, or null. */
export function parseEventContent(
  content: SendEventArgs["content"],
): Record<string, unknown> | null {
  if (typeof content !== "string") return content ?? null;
  try {
    const value: unknown = JSON.parse(content);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Put the caller's metadata on a result or error object (chatjs does the same). */
export function attachMetadata<T>(value: T, metadata: unknown): T {
  if (
    isObject(value) &&
    metadata !== undefined &&
    !("metadata" in value && value.metadata !== null)
  ) {
    (value as Record<string, unknown>).metadata = metadata;
  }
  return value;
}
