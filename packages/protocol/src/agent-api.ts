/**
 * The local contact centre's agent API, used by the agent console (routes under `/agent-api`).
 * Every route but sign-in needs `Authorization: Bearer <Token>` (the events stream also
 * accepts `?access_token=<Token>`, since EventSource cannot set headers). Errors use the
 * AWS error shape (`{"__type", "message"}` and `x-amzn-ErrorType`).
 */

import type { MentionEvent } from "./notes.js";
import type { VisitorChange } from "./visitor.js";

export const AgentApiPath = {
  SignIn: "/agent-api/sign-in",
  SignOut: "/agent-api/sign-out",
  Me: "/agent-api/me",
  Availability: "/agent-api/availability",
  Queue: "/agent-api/queue",
  Chats: "/agent-api/chats",
  Events: "/agent-api/events",
  /** POST; `:contactId` replaced by the contact id. */
  Accept: "/agent-api/contacts/:contactId/accept",
  /** POST: what the agent session's getConnectionToken calls. */
  ConnectionToken: "/agent-api/contacts/:contactId/connection-token",
  /** POST: end the contact. */
  End: "/agent-api/contacts/:contactId/end",
  /** POST: a URL for the advisor's one shared websocket (every AGENT session's items). */
  WebSocketTransport: "/agent-api/websocket-transport",
  /** GET upgrade: the advisor websocket, authenticated by its `token` query parameter. */
  WebSocket: "/agent-api/ws",
} as const;

/** Fill `:contactId` in an AgentApiPath. */
export const agentContactPath = (path: string, contactId: string): string =>
  path.replace(":contactId", encodeURIComponent(contactId));

export type AdvisorAvailability = "Available" | "Offline";
export const ADVISOR_AVAILABILITIES: readonly AdvisorAvailability[] = ["Available", "Offline"];
/** Most chats one advisor holds at once. */
export const MAX_CONCURRENT_CHATS = 10;

export interface Advisor {
  AdvisorId: string;
  Username: string;
  /** Shown to the customer: "{Name} has joined the chat". */
  Name: string;
  Availability: AdvisorAvailability;
  MaxConcurrentChats: number;
}

export interface SignInRequest {
  Username: string;
  Password: string;
}
export interface SignInResponse {
  Token: string;
  ExpiresAt: string;
  Advisor: Advisor;
}

export interface MeResponse {
  Advisor: Advisor;
}

export interface AvailabilityRequest {
  Availability: AdvisorAvailability;
}

/** A contact waiting in the queue. */
/**
 * A waiting contact as every advisor's queue shows it: only what the console shows (issue 57:
 * a visitor's many long attributes went to every console at every change), each text at most
 * QUEUE_TEXT_MAX characters. The accepted chat carries its attributes (AcceptResponse).
 */
export interface QueuedContact {
  ContactId: string;
  Queue: string;
  QueuedAt: string;
  CustomerName: string;
  /** The order number the chat carries (signed or reported), if any. */
  OrderNumber?: string;
}
/** The most characters of a queue entry's CustomerName and OrderNumber. */
export const QUEUE_TEXT_MAX = 128;
/** The contact attribute holding the order number (the jwt's or the order-number report's). */
export const ORDER_NUMBER_ATTRIBUTE = "orderNumber";
export interface QueueResponse {
  /** Oldest first. */
  Contacts: QueuedContact[];
}
/**
 * The events stream's `queue-change`: entries new or changed since the last frame (to put in
 * place by QueuedAt, then ContactId), and the contact ids that left the queue.
 */
export interface QueueChange {
  Added: QueuedContact[];
  Removed: string[];
}

/**
 * Where a contact attribute came from (issue 57): the verified visitor jwt ("jwt"), or, not
 * verified, the page's start-chat Attributes ("page"), the order-number report ("report") or
 * the contact flow's saved answers ("flow").
 */
export type AttributeSource = "jwt" | "page" | "report" | "flow";

/** Chat details for the console's AGENT chat session (its chatDetails, with getConnectionToken). */
export interface AcceptResponse {
  ContactId: string;
  InitialContactId: string;
  ParticipantId: string;
  ParticipantToken: string;
  /** The flat map, as Amazon Connect and chatjs expect it. */
  Attributes: Record<string, string>;
  /** Each attribute's source, beside the map (absent: not known, so not verified). */
  AttributeSources: Record<string, AttributeSource>;
  CustomerName: string;
}

export interface ActiveChat extends AcceptResponse {
  Queue: string;
  AcceptedAt: string;
}
export interface ChatsResponse {
  /** The advisor's active chats, oldest accepted first. */
  Chats: ActiveChat[];
}

/** What getConnectionToken resolves to (docs/protocol.md §5.2). */
export interface ConnectionTokenResponse {
  chatTokenTransport: { participantToken: string; expiry: string };
}

/**
 * Server-sent events of `GET /agent-api/events`, JSON data: `event: queue` (the whole queue, first),
 * then `event: queue-change` for each change; `event: chats` (the advisor's chats, whole);
 * `event: visitor` when the visitor of one of the advisor's chats reports another page;
 * `event: mention` when another advisor mentions them in an internal note.
 */
export type AgentEvent =
  | { event: "queue"; data: QueueResponse }
  | { event: "queue-change"; data: QueueChange }
  | { event: "chats"; data: ChatsResponse }
  | { event: "visitor"; data: VisitorChange }
  | { event: "mention"; data: MentionEvent };

/**
 * `POST /agent-api/websocket-transport`: what the console's websocket manager fetcher
 * resolves to. The URL speaks the participant websocket's frames (docs/protocol.md §3.2) and carries
 * the items of every contact the advisor holds, including ones accepted after it opened.
 */
export interface WebSocketTransportResponse {
  webSocketTransport: {
    url: string;
    /** ISO time after which the URL no longer opens a websocket. */
    expiry: string;
    transportLifeTimeInSeconds: number;
  };
}
