/**
 * The session's events, one typed callback map. Each `on*` method of a session subscribes
 * to one of these and returns its unsubscribe.
 */
import type { Item } from "@chat-widget/protocol";
import type { ChatDetailsSnapshot } from "./connection-details.js";
import type { TranscriptUpdate } from "./transcript.js";

/** What every callback receives: the event's data and the session's chat details. */
export interface ChatEvent<T> {
  data: T;
  chatDetails: ChatDetailsSnapshot;
}

/** The result of `connect()`, also the data of the first `connectionEstablished`. */
export interface ConnectResult {
  _debug: unknown;
  connectSuccess: boolean;
  connectCalled: boolean;
  metadata: unknown;
}

export interface ChatEventMap {
  /** Messages, attachments and every event without its own callback (joined, left, ended, ...). */
  message: (event: ChatEvent<Item>) => void;
  typing: (event: ChatEvent<Item>) => void;
  readReceipt: (event: ChatEvent<Item>) => void;
  deliveredReceipt: (event: ChatEvent<Item>) => void;
  /** On connect success and on every websocket (re)connection. */
  connectionEstablished: (event: ChatEvent<unknown>) => void;
  /** The connection ended for good (manager terminated or chat over); the session is unusable. */
  connectionBroken: (event: ChatEvent<unknown>) => void;
  connectionLost: (event: ChatEvent<unknown>) => void;
  /** The chat ended (after the chat-ended item reached `message`). */
  ended: (event: ChatEvent<null>) => void;
  participantIdle: (event: ChatEvent<Item>) => void;
  participantReturned: (event: ChatEvent<Item>) => void;
  participantInvited: (event: ChatEvent<Item>) => void;
  autoDisconnection: (event: ChatEvent<Item>) => void;
  chatRehydrated: (event: ChatEvent<Item>) => void;
  participantDisplayNameUpdated: (event: ChatEvent<Item>) => void;
  /** authentication.initiated / succeeded / failed / timeout / expired / cancelled items. */
  authenticationEvent: (event: ChatEvent<Item>) => void;
  deepHeartbeatSuccess: (event: ChatEvent<unknown>) => void;
  deepHeartbeatFailure: (event: ChatEvent<unknown>) => void;
  /** The agent's own acknowledgement succeeded, or a connection.acknowledged item arrived. */
  connectionAcknowledged: (event: ChatEvent<unknown>) => void;
  /**
   * The session's transcript changed (chatjs 5): an item arrived or was read, a message is
   * being sent, was sent or failed, or a receipt changed its status. Subscribing turns the
   * transcript on, and from then on every connection reads the latest 100 items.
   */
  transcriptUpdated: (event: ChatEvent<TranscriptUpdate>) => void;
}

export type ChatEventName = keyof ChatEventMap;
