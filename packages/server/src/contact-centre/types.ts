/**
 * The contact centre's domain API: the one place that creates contacts and participants,
 * commits transcript items (before they are acknowledged or fanned out) and ends chats.
 * The participant routes, the gateway, the contact flow and the agent API all go through it.
 */
import type { AttributeSource } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";
import type { StatementPart } from "./chats-repo.js";
import type { MessageInput } from "./item-factory.js";
import type { PersistentChatInput } from "./rehydration.js";
import type { ParticipantRecord } from "./rows.js";

export type Role = "CUSTOMER" | "AGENT" | "SYSTEM";

export interface Contact {
  contactId: string;
  initialContactId: string;
  instanceId: string;
  contactFlowId: string;
  status: "active" | "ended";
  attributes: Record<string, string>;
  /** Where each attribute came from (issue 57): only "jwt" is verified; absent, not verified. */
  attributeSources?: Record<string, AttributeSource>;
  supportedContentTypes: string[];
  createdAt: string;
  endedAt: string | null;
}

export interface Participant {
  participantId: string;
  contactId: string;
  role: Role;
  displayName: string;
  /** Set once the participant created a connection with ConnectParticipant or a websocket. */
  connectedAt: string | null;
  leftAt: string | null;
}

export interface StartChatInput {
  instanceId: string;
  contactFlowId: string;
  displayName: string;
  supportedContentTypes: string[];
  attributes?: Record<string, string>;
  /** Stored as the customer's first message, right after they join. */
  initialMessage?: { contentType: string; content: string };
  /** How long the chat may last before it is ended (default DEFAULT_CHAT_DURATION_MINUTES). */
  durationMinutes?: number;
  /** Continue an ended chat: its past conversation comes first (contact-centre/rehydration.ts). */
  persistentChat?: PersistentChatInput;
  /** The subject (`sub`) of the visitor jwt verified at start: a continuation's proof. */
  visitorSubject?: string;
  /** Where each of `attributes` came from (the jwt's verified); absent keys are not verified. */
  attributeSources?: Record<string, AttributeSource>;
}

export interface NewParticipant {
  contactId: string;
  participantId: string;
  participantToken: string;
  /**
   * A started chat's continuation secret: given to its customer only, it proves a later
   * start-chat theirs (rehydration.ts); only its hash is stored. Absent for other participants.
   */
  continuationToken?: string;
  /** A persistent chat: the past contact it continues. */
  continuedFromContactId?: string;
  /** A started chat's customer and contact as committed (what its token authenticates). */
  started?: { participant: ParticipantRecord; contact: Contact };
}

export interface AddParticipantOptions {
  /**
   * The participant's id (default: a random UUID). Adding an id that has already joined the
   * contact adds nothing and fails with ConflictException, so a retried join never joins twice.
   */
  participantId?: string;
  /** The participant's token (default: a random one); only its hash is stored. */
  participantToken?: string;
}

export interface PostInput {
  contentType: string;
  content?: string;
  /**
   * Idempotency token (docs/protocol.md §1.12): a repeat with the same token, content type and
   * content returns the first item and records nothing new.
   */
  clientToken?: string;
  /**
   * A SYSTEM participant's message shown under another name: the flow speaks as its assistant
   * and, with `BOT`, as its bot (as the hosted service's SYSTEM_MESSAGE and BOT lines). Ignored
   * for anyone else; never taken from a request.
   */
  displayName?: string;
  /**
   * The Id of a message a SYSTEM participant streamed in chunks before it (postChunk): the
   * committed message takes that Id and says it completes the stream (`MessageCompleted:
   * true`, docs/protocol.md §3.4.1). Never taken from a request.
   */
  completes?: string;
  /**
   * A SYSTEM participant's message under this Id (the flow makes it of its step): posted again,
   * whatever its content, it is not stored twice; the first is returned. Never taken from a
   * request.
   */
  id?: string;
}

/** One piece of a message streamed as it is written (docs/protocol.md §3.4.1). */
export interface StreamChunk {
  /** The streamed message's Id, shared by every chunk and the completed message. */
  messageId: string;
  /** 1 for the first chunk, then one more each. */
  chunkNumber: number;
  contentType: string;
  /** This chunk's text (the client joins them). */
  content: string;
  /** When the first chunk went out: every chunk carries it. */
  startedAt: string;
  /** As PostInput's. */
  displayName?: string;
}

export interface ConnectionTokenGrant {
  connectionToken: string;
  /** ISO time: now + 1 day. */
  expiry: string;
}

/** What CreateParticipantConnection asks for. */
export interface ConnectionRequest {
  /** A websocket URL token (valid WEBSOCKET_URL_TTL_MS). */
  websocket: boolean;
  /** A connection token (valid a day). */
  credentials: boolean;
  /** ConnectParticipant: mark the participant connected now. */
  connect: boolean;
}

export interface ConnectionGrant {
  /** When it was granted: the participant's first connection, and its connection when asked. */
  at: string;
  websocket?: { token: string; expiry: string };
  credentials?: ConnectionTokenGrant;
}

export interface AttachmentInput {
  attachmentId: string;
  /** CompleteAttachmentUpload's ClientToken: a retry is answered again, nothing more happens. */
  clientToken?: string;
}

/** StartAttachmentUpload, its type already checked and lower-cased. */
export interface UploadInput {
  contentType: string;
  name: string;
  sizeBytes: number;
  clientToken: string;
}

export interface StartedUpload {
  attachmentId: string;
  /** Epoch ms: when the upload URL (and the pending upload) expires. */
  expires: number;
}

/**
 * What a chat's flow says as the chat starts, committed with the chat itself (one write: the
 * chat exists with its opening or not at all), instead of in steps after the customer joined.
 */
export interface ChatOpening {
  /** The flow's SYSTEM participant: joins right after the customer, then says `lines`. */
  speaker: { participantId: string; displayName: string };
  lines: MessageInput[];
  /** What the flow keeps of it (its position), written in the chat's own statement by `write`. */
  kept: unknown;
  /**
   * The write of the `kept` of chats started together, as a part of their statement: called
   * once per batch of chats committed together, with every opening of the batch that has this
   * same `write`.
   */
  write: (kept: unknown[]) => StatementPart;
}

/** The opening of a new chat (null: none), decided once its contact is known. */
export type OpenChat = (contact: Contact) => Promise<ChatOpening | null>;

export interface ContactCentre {
  /**
   * Create a contact with its CUSTOMER participant; records participant.joined, then the
   * opening's items when `open` gives one.
   */
  startChat(input: StartChatInput, open?: OpenChat): Promise<NewParticipant>;
  getContact(contactId: string): Promise<Contact | null>;
  /** Merge attributes into the contact (order-number report, flow decisions), noting their source. */
  updateAttributes(
    contactId: string,
    attributes: Record<string, string>,
    source: AttributeSource,
  ): Promise<Contact>;
  getParticipants(contactId: string): Promise<Participant[]>;
  /** Add an AGENT or SYSTEM participant; records participant.joined. */
  addParticipant(
    contactId: string,
    role: Role,
    displayName: string,
    options?: AddParticipantOptions,
  ): Promise<NewParticipant>;
  /** A message from a participant (the bot and flow speak as a SYSTEM participant). */
  postMessage(contactId: string, participantId: string, input: PostInput): Promise<Item>;
  /**
   * A chunk of a message a SYSTEM participant streams (a bot's answer as it is written): fanned
   * out to the contact's sockets as it comes, never stored, not heard by item listeners;
   * postMessage with `completes` then commits the whole text.
   */
  postChunk(contactId: string, participantId: string, chunk: StreamChunk): Promise<Item>;
  /** An event from a participant (typing is fanned out but not stored). */
  postEvent(contactId: string, participantId: string, input: PostInput): Promise<Item>;
  /**
   * The participant leaves: participant.left; when no customer remains (the customer left)
   * the contact ends as in endContact. An agent leaving leaves the chat open for the flow.
   * With a `clientToken` a retry is answered again (nothing more happens), checked and
   * recorded in the same transaction as the leaving, so concurrent retries leave once.
   */
  disconnectParticipant(
    contactId: string,
    participantId: string,
    clientToken?: string,
  ): Promise<void>;
  /**
   * End the contact: participant.left for the remaining customer and agent participants
   * (system participants leave silently), then chat.ended; then every socket of the
   * contact is closed. Ending an ended contact does nothing.
   */
  endContact(contactId: string): Promise<void>;
  /**
   * StartAttachmentUpload, under the contact's lock: a pending attachment of the participant,
   * or the first one again for a repeated ClientToken (with its first expiry); 402 once the
   * contact holds ATTACHMENTS_PER_CONTACT_QUOTA live attachments.
   */
  startAttachmentUpload(
    contactId: string,
    participantId: string,
    input: UploadInput,
  ): Promise<StartedUpload>;
  /**
   * A participant's completed upload: records an ATTACHMENT item (Status APPROVED); only the
   * uploader's own attachment. A repeated ClientToken is answered null, nothing recorded.
   */
  postAttachment(
    contactId: string,
    participantId: string,
    input: AttachmentInput,
  ): Promise<Item | null>;
  /**
   * Issue a connection token (1 day) for a participant still in an active contact; each call
   * returns a new token and earlier unexpired ones stay valid. The agent API uses it for
   * an agent session's getConnectionToken.
   */
  issueConnectionToken(contactId: string, participantId: string): Promise<ConnectionTokenGrant>;
  /**
   * CreateParticipantConnection: the tokens asked for, issued in one transaction with the
   * contact locked, only to a participant who has not left an active chat (else
   * AccessDeniedException); the participant's first connection is recorded with them.
   */
  createConnection(
    contactId: string,
    participantId: string,
    request: ConnectionRequest,
  ): Promise<ConnectionGrant>;
  /** Mark the participant connected (ConnectParticipant, websocket open); idempotent. */
  markConnected(contactId: string, participantId: string): Promise<void>;
  /**
   * Called in the process that committed the item, after commit and fan-out, once per item.
   * The contact flow and the agent queue react to items here.
   */
  onItemCommitted(listener: (contact: Contact, item: Item) => void | Promise<void>): () => void;
}
