import { Errors, type ServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { toIso } from "./rows.js";

/**
 * Completed attachments one contact may hold, all its participants together. Beyond it
 * StartAttachmentUpload and CompleteAttachmentUpload answer 402 ServiceQuotaExceededException
 * (protocol §1.7). A constant: the server configuration (src/config.ts) has no entry for it.
 */
export const ATTACHMENTS_PER_CONTACT_QUOTA = 50;

export function attachmentQuotaExceeded(): ServiceError {
  return Errors.quotaExceeded(
    `The number of attachments per contact exceeds the quota of ${ATTACHMENTS_PER_CONTACT_QUOTA}.`,
  );
}

export type AttachmentState = "pending" | "uploaded" | "completed";

export interface AttachmentRecord {
  attachmentId: string;
  contactId: string;
  participantId: string;
  contentType: string;
  name: string;
  sizeBytes: number;
  status: AttachmentState;
  createdAt: string;
}

interface AttachmentRow {
  attachment_id: string;
  contact_id: string;
  participant_id: string;
  content_type: string;
  name: string;
  size_bytes: number;
  status: string;
  created_at: unknown;
}

const COLUMNS =
  "attachment_id, contact_id, participant_id, content_type, name, size_bytes, status, created_at";

function toRecord(row: AttachmentRow): AttachmentRecord {
  return {
    attachmentId: row.attachment_id,
    contactId: row.contact_id,
    participantId: row.participant_id,
    contentType: row.content_type,
    name: row.name,
    sizeBytes: Number(row.size_bytes),
    status: row.status as AttachmentState,
    createdAt: toIso(row.created_at),
  };
}

export async function insertAttachment(db: Db, a: Omit<AttachmentRecord, "status">): Promise<void> {
  await db.query(
    `INSERT INTO attachments (attachment_id, contact_id, participant_id, content_type, name, size_bytes, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [a.attachmentId, a.contactId, a.participantId, a.contentType, a.name, a.sizeBytes, a.createdAt],
  );
}

export async function findAttachment(
  db: Db,
  attachmentId: string,
): Promise<AttachmentRecord | null> {
  const [row] = await db.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE attachment_id = $1`,
    [attachmentId],
  );
  return row ? toRecord(row) : null;
}

/*
 * Attachment bytes cross the driver as base64 text, decoded and encoded by the database:
 * PGlite passes a bytea parameter or column as hex text, 3–7× slower for a 20 MB file.
 */

/** Store the bytes of a pending (or re-uploaded, not yet completed) attachment. */
export async function storeAttachmentData(
  db: Db,
  attachmentId: string,
  data: Uint8Array,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE attachments SET data = decode($2, 'base64'), status = 'uploaded'
     WHERE attachment_id = $1 AND status IN ('pending', 'uploaded') RETURNING attachment_id`,
    [attachmentId, Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64")],
  );
  return rows.length > 0;
}

export async function countCompletedAttachments(db: Db, contactId: string): Promise<number> {
  const [row] = await db.query<{ n: unknown }>(
    "SELECT count(*) AS n FROM attachments WHERE contact_id = $1 AND status = 'completed'",
    [contactId],
  );
  return Number(row?.n ?? 0);
}

/**
 * Uploaded → completed, once; false when it was not in the uploaded state. Throws
 * ServiceQuotaExceededException when its contact already holds ATTACHMENTS_PER_CONTACT_QUOTA
 * completed attachments. Run it under the contact's lock, so that concurrent completions
 * cannot pass the quota together.
 */
export async function completeAttachment(
  db: Db,
  attachmentId: string,
  at: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE attachments a SET status = 'completed', completed_at = $2
     WHERE a.attachment_id = $1 AND a.status = 'uploaded'
       AND (SELECT count(*) FROM attachments c
            WHERE c.contact_id = a.contact_id AND c.status = 'completed') < $3
     RETURNING a.attachment_id`,
    [attachmentId, at, ATTACHMENTS_PER_CONTACT_QUOTA],
  );
  if (rows.length > 0) return true;
  if ((await findAttachment(db, attachmentId))?.status === "uploaded") {
    throw attachmentQuotaExceeded();
  }
  return false;
}

export async function readAttachmentData(db: Db, attachmentId: string): Promise<Uint8Array | null> {
  const [row] = await db.query<{ data: string | null }>(
    "SELECT encode(data, 'base64') AS data FROM attachments WHERE attachment_id = $1 AND status = 'completed'",
    [attachmentId],
  );
  return row?.data == null ? null : Buffer.from(row.data, "base64");
}
