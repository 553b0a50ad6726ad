/**
 * Transfer (issue 60): the advisor holding a live chat hands it to another available advisor
 * or back to its queue, with an optional note the next advisor reads among the chat's notes.
 *
 *   GET  /agent-api/contacts/:contactId/transfer-targets → TransferTargetsResponse
 *   POST /agent-api/contacts/:contactId/transfer         TransferRequest → TransferResponse
 *
 * Only the holder may ask (another advisor: 404; a participant token or a stranger: 403). The
 * chat gets a `transfer.succeeded` event from the handing advisor, whose AGENT participant
 * then leaves (its session ends on that event; its token is refused from then on); the next
 * advisor joins and reads the whole history, or the chat waits in its queue in its old place.
 */
export const TransferApiPath = {
  Targets: "/agent-api/contacts/:contactId/transfer-targets",
  Transfer: "/agent-api/contacts/:contactId/transfer",
} as const;

/** The most characters of the note that travels with a transfer (as a note's). */
export const TRANSFER_NOTE_MAX = 4000;

export interface TransferTarget {
  AdvisorId: string;
  Name: string;
  Username: string;
  /** Chats they hold or are taking now, and the most they take at once. */
  Chats: number;
  MaxChats: number;
}

export interface TransferTargetsResponse {
  /** Signed in, available and enabled, least loaded first; one at their most cannot take it. */
  Advisors: TransferTarget[];
  /** The queue the chat goes back to. */
  Queue: string;
}

/** To an advisor (`AdvisorId`) or back to the queue (`Queue: true`), one of the two. */
export interface TransferRequest {
  AdvisorId?: string;
  Queue?: boolean;
  /** Stored as a note of the handing advisor's on the chat, for the next one to read. */
  Note?: string;
}

export interface TransferResponse {
  ContactId: string;
  /** The advisor who now holds it, or null when it went back to its queue. */
  AdvisorId: string | null;
  AdvisorName: string | null;
}
