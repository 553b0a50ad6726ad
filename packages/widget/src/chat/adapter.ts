/**
 * The widget's seam to the chat client: the components and the controller only know this
 * interface; `client-adapter.ts` implements it with `@chat-widget/chat-client`, tests with a fake.
 */
import type { Item, StartChatResult } from "@chat-widget/protocol";

export interface ChatHandlers {
  /**
   * Every incoming item that is not typing or a receipt: messages, attachments, events. A
   * chat-ended item comes here too, with its role (docs/product.md §4: only a non-customer's ends the
   * chat), so the client's role-less "ended" event is not needed.
   */
  onMessage(item: Item): void;
  onTyping(item: Item): void;
  /** A read or delivered receipt (a MESSAGEMETADATA item) for a message (issue 24). */
  onReceipt(item: Item): void;
  onConnectionBroken(): void;
  onConnectionEstablished(): void;
  /** The websocket dropped; the client reconnects on its own (onConnectionEstablished). */
  onConnectionLost(): void;
}

export interface SentMessage {
  Id: string;
  AbsoluteTime: string;
}

export interface TranscriptPage {
  Transcript: Item[];
  NextToken?: string;
}

export interface TranscriptRequest {
  maxResults: number;
  scanDirection: "BACKWARD" | "FORWARD";
  sortOrder: "ASCENDING" | "DESCENDING";
  nextToken?: string;
}

export interface ChatConnection {
  /** Resolves once stored; the same `clientToken` on a retry is stored once. */
  sendMessage(content: string, contentType: string, clientToken?: string): Promise<SentMessage>;
  sendEvent(contentType: string, content?: string): Promise<void>;
  /** Upload a file; `onProgress` gets a fraction in [0, 1] where the client reports one. */
  sendAttachment(file: File, onProgress: (fraction: number) => void): Promise<void>;
  /** Download an attachment; `onProgress` gets a fraction in [0, 1] where the client reports one. */
  downloadAttachment(attachmentId: string, onProgress?: (fraction: number) => void): Promise<Blob>;
  getTranscript(request: TranscriptRequest): Promise<TranscriptPage>;
  /** DisconnectParticipant. */
  disconnect(): Promise<void>;
  /**
   * Drop every subscription (later events from this connection are not delivered) and close
   * the websocket; the participant stays connected, so the chat can be resumed (docs/decisions.md #6).
   */
  dispose(): void;
}

export interface ChatAdapter {
  /**
   * Create the customer session, subscribe the handlers, connect; rejects when it cannot, with
   * `final: false` on the error when the contact centre was not reached or answered "not now"
   * (no answer, timeout, 429, 5xx), so that trying again later may work.
   */
  connect(details: StartChatResult, handlers: ChatHandlers): Promise<ChatConnection>;
}
