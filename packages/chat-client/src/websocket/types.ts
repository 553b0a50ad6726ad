/**
 * The websocket manager's public contract. It mirrors the manager that amazon-connect-chatjs
 * bundles, so an AGENT session can also be handed a third party's manager (e.g. the one
 * Amazon Connect Streams shares) through `ChatSession.create({ websocketManager })`.
 */
import type { WebSocketEnvelope } from "@chat-widget/protocol";

export interface WebSocketTransport {
  url: string;
  /** ISO time after which the URL may no longer be used (informational). */
  expiry?: string;
  /** Scheduled proactive reconnect after open; must be at least 300 s. */
  transportLifeTimeInSeconds: number;
}

/** Fetches a fresh websocket URL (CreateParticipantConnection for chat sessions). */
export type TransportFetcher = () => Promise<{ webSocketTransport: WebSocketTransport }>;

export type Unsubscribe = () => void;

export interface WebSocketManager {
  /** Start: fetch a URL, open, subscribe, heartbeat. Resolves once the first attempt settles. */
  init(fetcher: TransportFetcher): Promise<{ websocketInitFailed: boolean; error?: unknown }>;
  /** Ask the server to deliver these topics (re-sent on every (re)open). */
  subscribeTopics(topics: string[]): void;
  /** Send an application frame; frames on reserved topics are refused. */
  sendMessage(frame: WebSocketEnvelope): void;
  onMessage(topic: string, cb: (frame: WebSocketEnvelope) => void): Unsubscribe;
  onAllMessage(cb: (frame: WebSocketEnvelope) => void): Unsubscribe;
  onConnectionGain(cb: () => void): Unsubscribe;
  onConnectionLost(cb: (info?: { reason?: string }) => void): Unsubscribe;
  onInitFailure(cb: (error?: unknown) => void): Unsubscribe;
  onDeepHeartbeatSuccess(cb: () => void): Unsubscribe;
  onDeepHeartbeatFailure(cb: () => void): Unsubscribe;
  onSubscriptionUpdate(cb: (topics: string[]) => void): Unsubscribe;
  onSubscriptionFailure(cb: (topics: string[]) => void): Unsubscribe;
  /** Close at the user's request (code 1000); the manager stays usable for a later init. */
  closeWebSocket(): void;
  /** Close everything for good; no reconnect after this. */
  terminate(): void;
  /**
   * Ours only (chatjs's has none): the service just answered one of the session's HTTP
   * requests, so a socket waiting on a long backoff may try again sooner.
   */
  serviceAnswered?(): void;
}
