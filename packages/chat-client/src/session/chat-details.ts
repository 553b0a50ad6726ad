/** Chat details as callers give them (chatjs's spellings accepted) and their validation (docs/product.md §5). */
import { illegalArgument } from "../core/errors.js";
import { assertIsNonEmptyString, assertIsObject, isFunction } from "../core/validation.js";

export const SessionTypes = { AGENT: "AGENT", CUSTOMER: "CUSTOMER" } as const;
export type SessionType = (typeof SessionTypes)[keyof typeof SessionTypes];

/** What `getConnectionToken()` resolves to (Amazon Connect Streams' shape). */
export interface ConnectionTokenResponse {
  chatTokenTransport: { participantToken: string; expiry?: string | null };
}

/** The chat details a session is created with; PascalCase spellings are accepted too. */
export interface ChatDetailsInput {
  contactId?: string;
  ContactId?: string;
  participantId?: string;
  ParticipantId?: string;
  initialContactId?: string;
  InitialContactId?: string;
  participantToken?: string;
  ParticipantToken?: string;
  getConnectionToken?: () => Promise<ConnectionTokenResponse>;
}

export interface ChatDetails {
  contactId: string;
  participantId: string;
  initialContactId: string;
  participantToken?: string;
  getConnectionToken?: () => Promise<ConnectionTokenResponse>;
}

export function assertSessionType(type: unknown): asserts type is SessionType {
  if (type !== SessionTypes.AGENT && type !== SessionTypes.CUSTOMER) {
    throw illegalArgument(
      `Unkown value for session type, Allowed values are: ${Object.values(SessionTypes).join(",")}`,
      type,
    );
  }
}

/** Normalise spellings, then check: an object with non-empty ids and the session type's credential. */
export function validateChatDetails(input: unknown, type: SessionType): ChatDetails {
  assertIsObject(input, "chatDetails");
  const d = input as ChatDetailsInput;
  const contactId = d.ContactId ?? d.contactId;
  const participantId = d.ParticipantId ?? d.participantId;
  const participantToken = d.ParticipantToken ?? d.participantToken;
  const getConnectionToken = d.getConnectionToken;
  if (type === SessionTypes.AGENT && !isFunction(getConnectionToken)) {
    throw illegalArgument("getConnectionToken was not a function", getConnectionToken);
  }
  assertIsNonEmptyString(contactId, "chatDetails.contactId");
  assertIsNonEmptyString(participantId, "chatDetails.participantId");
  if (type === SessionTypes.CUSTOMER) {
    if (!participantToken) {
      throw illegalArgument(
        "participantToken was not provided for a customer session type",
        participantToken,
      );
    }
    assertIsNonEmptyString(participantToken, "chatDetails.participantToken");
  }
  const details: ChatDetails = {
    contactId,
    participantId,
    initialContactId: d.InitialContactId ?? d.initialContactId ?? contactId,
  };
  if (participantToken) details.participantToken = participantToken;
  if (getConnectionToken) details.getConnectionToken = getConnectionToken;
  return details;
}
