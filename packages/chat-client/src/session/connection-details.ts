/**
 * Fetches the connection details of a session (docs/product.md §3 "Connection details", §6): a customer
 * creates a participant connection with its participant token; an agent asks its
 * `getConnectionToken` function and falls back to a participant connection with the
 * connect-participant flag (CONN_ACK_FAILED when that fails too).
 */
import type { CreateParticipantConnectionResponse } from "@chat-widget/protocol";
import type { ParticipantClient } from "../api/participant-client.js";
import { ChatClientError } from "../core/errors.js";
import type { Logger } from "../env.js";
import { SessionTypes, type ChatDetails, type SessionType } from "./chat-details.js";

/** chatjs's transport lifetime: a proactive websocket reconnect after 3540 s (docs/product.md §9). */
export const TRANSPORT_LIFETIME_IN_SECONDS = 3540;

export interface ConnectionDetails {
  url: string | null;
  expiry: string | null;
  transportLifeTimeInSeconds: number;
  connectionAcknowledged: boolean;
  connectionToken: string | null;
  connectionTokenExpiry: string | null;
}

const BOTH_TYPES: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] = ["WEBSOCKET", "CONNECTION_CREDENTIALS"];

export function fromParticipantConnection(
  response: CreateParticipantConnectionResponse,
  acknowledged: boolean,
): ConnectionDetails {
  return {
    url: response.Websocket?.Url ?? null,
    expiry: response.Websocket?.ConnectionExpiry ?? null,
    transportLifeTimeInSeconds: TRANSPORT_LIFETIME_IN_SECONDS,
    connectionAcknowledged: acknowledged,
    connectionToken: response.ConnectionCredentials?.ConnectionToken ?? null,
    connectionTokenExpiry: response.ConnectionCredentials?.Expiry ?? null,
  };
}

export class ConnectionDetailsProvider {
  details: ConnectionDetails | null = null;

  readonly #client: ParticipantClient;
  readonly #chatDetails: ChatDetails;
  readonly #sessionType: SessionType;
  readonly #logger: Logger;
  constructor(
    client: ParticipantClient,
    chatDetails: ChatDetails,
    sessionType: SessionType,
    logger: Logger,
  ) {
    this.#client = client;
    this.#chatDetails = chatDetails;
    this.#sessionType = sessionType;
    this.#logger = logger;
  }

  getConnectionToken(): string | null {
    return this.details?.connectionToken ?? null;
  }

  /** The session type's way of getting a connection token (and, for customers, a websocket URL). */
  async fetchConnectionDetails(): Promise<ConnectionDetails> {
    if (this.#sessionType === SessionTypes.CUSTOMER) return this.fetchParticipantConnection(false);
    if (this.#sessionType === SessionTypes.AGENT) return this.#fetchAgentConnection();
    throw new Error("Failed to fetch connectionDetails.");
  }

  /** CreateParticipantConnection with both types (and the connect-participant flag when asked). */
  async fetchParticipantConnection(connectParticipant: boolean): Promise<ConnectionDetails> {
    const response = await this.#client.createParticipantConnection(
      this.#participantToken(),
      BOTH_TYPES,
      connectParticipant,
    );
    return this.#store(fromParticipantConnection(response, connectParticipant));
  }

  /** An agent's acknowledgement: CreateParticipantConnection with only `ConnectParticipant: true`. */
  async acknowledge(): Promise<void> {
    await this.#client.createParticipantConnection(this.#participantToken(), undefined, true);
    if (this.details) this.details.connectionAcknowledged = true;
  }

  async #fetchAgentConnection(): Promise<ConnectionDetails> {
    try {
      const response = await this.#chatDetails.getConnectionToken!();
      const transport = response.chatTokenTransport;
      return this.#store({
        url: null,
        expiry: null,
        transportLifeTimeInSeconds: TRANSPORT_LIFETIME_IN_SECONDS,
        connectionAcknowledged: false,
        connectionToken: transport.participantToken,
        connectionTokenExpiry: transport.expiry ?? null,
      });
    } catch (tokenError) {
      this.#logger.warn("getConnectionToken failed, using createParticipantConnection", tokenError);
      try {
        return await this.fetchParticipantConnection(true);
      } catch (error) {
        throw new ChatClientError(
          "CONN_ACK_FAILED",
          "Failed to fetch connectionDetails with createParticipantConnection",
          {
            cause: error,
          },
        );
      }
    }
  }

  #participantToken(): string {
    return this.#chatDetails.participantToken ?? "";
  }

  #store(details: ConnectionDetails): ConnectionDetails {
    this.details = details;
    return details;
  }
}

/** What `getChatDetails()` returns and every event carries (docs/product.md §3 "Chat controller state"). */
export interface ChatDetailsSnapshot {
  initialContactId: string;
  contactId: string;
  participantId: string;
  participantToken?: string;
  connectionDetails: ConnectionDetails | null;
}
