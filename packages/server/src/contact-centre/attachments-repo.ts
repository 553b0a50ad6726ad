import { Errors, type ServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { deleteChunksExcept } from "./attachment-chunks-repo.js";
import { toIso } from "./rows.js";

/**
 * Attachments one contact may hold, all its participants together: completed ones plus uploads
 * started and not expired, so that pending uploads cannot pile up beside the completed ones.
 * Beyond it StartAttachmentUpload and CompleteAttachmentUpload answer 402
 * ServiceQuotaExceededException (docs/protocol.md §1.7). A constant: the server configuration
 * (src/config.ts) has no entry for it.
 */
export const ATTACHMENTS_PER_CONTACT_QUOTA = 50;

/**
 * How long an upload URL may be used. A not-completed upload lives that long after its start,
 * and once its bytes are in, that long again to be completed; then it expires.
 */
export const UPLOAD_URL_TTL_MS = 5 * 60 * 1000;

export function attachmentQuotaExceeded(): ServiceError {
  return Errors.quotaExceeded(
    `The number of attachments per contact exceeds the quota of ${ATTACHMENTS_PER_CONTACT_QUOTA}.`,
  );
}

export function attachmentExpired(attachmentId: string): ServiceError {
  return Errors.validation(
    `Attachment ${attachmentId} has expired: it was not uploaded and completed in time. Start a new upload.`,
  );
}

export type AttachmentState = "pending" | "uploaded" | "completed" | "expired";

export interface AttachmentRecord {
  attachmentId: string;
  contactId: string;
  participantId: string;
  contentType: string;
  name: string;
  sizeBytes: number;
  status: AttachmentState;
  createdAt: string;
  /** Until when a not-completed upload lives; null once completed. */
  expiresAt: string | null;
  /** The upload attempt whose chunks hold the bytes; null before one finished. */
  uploadId: string | null;
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
  expires_at: unknown;
  upload_id: string | null;
}

const COLUMNS =
  "attachment_id, contact_id, participant_id, content_type, name, size_bytes, status, created_at, expires_at, upload_id";

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
    expiresAt: row.expires_at == null ? null : toIso(row.expires_at),
    uploadId: row.upload_id,
  };
}

/** Whether a not-completed upload has run out of time (by `at`, ISO). */
export function uploadExpired(a: AttachmentRecord, at: string): boolean {
  if (a.status === "expired") return true;
  return (
    a.status !== "completed" && a.expiresAt !== null && Date.parse(a.expiresAt) <= Date.parse(at)
  );
}

export async function insertAttachment(
  db: Db,
  a: Omit<AttachmentRecord, "status" | "uploadId">,
): Promise<void> {
  await db.query(
    `INSERT INTO attachments (attachment_id, contact_id, participant_id, content_type, name, size_bytes, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      a.attachmentId,
      a.contactId,
      a.participantId,
      a.contentType,
      a.name,
      a.sizeBytes,
      a.createdAt,
      a.expiresAt,
    ],
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

/**
 * Make upload attempt `uploadId` (its chunks all written) the attachment's bytes: pending or
 * uploaded → uploaded, completable until `completeBy`; the chunks of the attempt it replaces are
 * deleted. False (nothing changed) when the attachment was completed or expired meanwhile.
 */
export async function finishUpload(
  db: Db,
  attachmentId: string,
  uploadId: string,
  completeBy: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ upload_id: string | null }>(
      `SELECT upload_id FROM attachments
       WHERE attachment_id = $1 AND status IN ('pending', 'uploaded') FOR UPDATE`,
      [attachmentId],
    );
    if (!row) return false;
    await tx.query(
      `UPDATE attachments SET status = 'uploaded', upload_id = $2,
         expires_at = GREATEST(expires_at, $3::timestamptz)
       WHERE attachment_id = $1`,
      [attachmentId, uploadId, completeBy],
    );
    if (row.upload_id !== null && row.upload_id !== uploadId) {
      await tx.query("DELETE FROM attachment_chunks WHERE attachment_id = $1 AND upload_id = $2", [
        attachmentId,
        row.upload_id,
      ]);
    }
    return true;
  });
}

/**
 * Completed attachments plus uploads started and not expired by `at`: what
 * ATTACHMENTS_PER_CONTACT_QUOTA bounds.
 */
export async function countLiveAttachments(db: Db, contactId: string, at: string): Promise<number> {
  const [row] = await db.query<{ n: unknown }>(
    `SELECT count(*) AS n FROM attachments WHERE contact_id = $1
       AND (status = 'completed' OR (status IN ('pending', 'uploaded') AND expires_at > $2))`,
    [contactId, at],
  );
  return Number(row?.n ?? 0);
}

/**
 * Uploaded → completed, once; false when it was not in the uploaded state. Throws
 * ServiceQuotaExceededException when its contact already holds ATTACHMENTS_PER_CONTACT_QUOTA
 * completed attachments. Run it under the contact's lock, so that concurrent completions
 * cannot pass the quota together. Chunks of other attempts (aborted by a crash, or still under
 * way: they will fail) are deleted.
 */
export async function completeAttachment(
  db: Db,
  attachmentId: string,
  at: string,
): Promise<boolean> {
  const rows = await db.query<{ upload_id: string }>(
    `UPDATE attachments a SET status = 'completed', completed_at = $2, expires_at = NULL
     WHERE a.attachment_id = $1 AND a.status = 'uploaded' AND a.expires_at > $2
       AND (SELECT count(*) FROM attachments c
            WHERE c.contact_id = a.contact_id AND c.status = 'completed') < $3
     RETURNING a.upload_id`,
    [attachmentId, at, ATTACHMENTS_PER_CONTACT_QUOTA],
  );
  const [done] = rows;
  if (done) {
    await deleteChunksExcept(db, attachmentId, done.upload_id);
    return true;
  }
  const current = await findAttachment(db, attachmentId);
  if (current && uploadExpired(current, at)) throw attachmentExpired(attachmentId);
  if (current?.status === "uploaded") throw attachmentQuotaExceeded();
  return false;
}
