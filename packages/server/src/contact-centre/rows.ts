/** Mapping of database rows to domain values (both engines return Date for timestamptz). */
import type { AttributeSource } from "@chat-widget/protocol";
import type { Contact, Participant, Role } from "./types.js";

export const toIso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
export const toIsoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : toIso(value);

export interface ContactRow {
  contact_id: string;
  initial_contact_id: string;
  instance_id: string;
  contact_flow_id: string;
  status: string;
  attributes: Record<string, string>;
  attribute_sources?: Record<string, AttributeSource> | null;
  supported_content_types: string[];
  created_at: unknown;
  ended_at: unknown;
  last_seq: number;
  last_item_at: unknown;
}

export function toContact(row: ContactRow): Contact {
  return {
    contactId: row.contact_id,
    initialContactId: row.initial_contact_id,
    instanceId: row.instance_id,
    contactFlowId: row.contact_flow_id,
    status: row.status === "ended" ? "ended" : "active",
    attributes: row.attributes ?? {},
    attributeSources: row.attribute_sources ?? {},
    supportedContentTypes: row.supported_content_types ?? [],
    createdAt: toIso(row.created_at),
    endedAt: toIsoOrNull(row.ended_at),
  };
}

export interface ParticipantRow {
  participant_id: string;
  contact_id: string;
  role: string;
  display_name: string;
  created_at: unknown;
  first_connection_at: unknown;
  connected_at: unknown;
  left_at: unknown;
}

export function toParticipant(
  row: Omit<ParticipantRow, "created_at" | "first_connection_at">,
): Participant {
  return {
    participantId: row.participant_id,
    contactId: row.contact_id,
    role: row.role as Role,
    displayName: row.display_name,
    connectedAt: toIsoOrNull(row.connected_at),
    leftAt: toIsoOrNull(row.left_at),
  };
}

/** A participant with the bookkeeping the participant service needs. */
export interface ParticipantRecord extends Participant {
  createdAt: string;
  firstConnectionAt: string | null;
}

export function toParticipantRecord(row: ParticipantRow): ParticipantRecord {
  return {
    ...toParticipant(row),
    createdAt: toIso(row.created_at),
    firstConnectionAt: toIsoOrNull(row.first_connection_at),
  };
}

/** A participant as the contact centre hands it out: without its record-only fields. */
export function stripRecord(p: ParticipantRecord): Participant {
  return {
    participantId: p.participantId,
    contactId: p.contactId,
    role: p.role,
    displayName: p.displayName,
    connectedAt: p.connectedAt,
    leftAt: p.leftAt,
  };
}
