import type { Db } from "../store/db.js";

/**
 * Attachment bytes, in chunks of at most CHUNK_BYTES (migrations/106_attachment_chunks.sql).
 * Every PUT attempt writes its chunks under its own upload id; attachments.upload_id names the
 * attempt that finished, and only its chunks are ever read.
 *
 * Chunks cross the driver as base64 text, decoded and encoded by the database: PGlite passes a
 * bytea parameter or column as hex text, 3–7× slower.
 */

/**
 * Bytes per stored chunk. Large enough that a 20 MB file is 40 statements, small enough that
 * an upload or download holds well under 2 MB (the chunk, its base64 text, the driver's copy).
 */
export const CHUNK_BYTES = 512 * 1024;

export async function writeChunk(
  db: Db,
  attachmentId: string,
  uploadId: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await db.query(
    `INSERT INTO attachment_chunks (attachment_id, upload_id, seq, data)
     VALUES ($1, $2, $3, decode($4, 'base64'))`,
    [attachmentId, uploadId, seq, data.toString("base64")],
  );
}

/** One chunk of an upload; null past its last. */
export async function readChunk(
  db: Db,
  attachmentId: string,
  uploadId: string,
  seq: number,
): Promise<Buffer | null> {
  const [row] = await db.query<{ data: string }>(
    `SELECT encode(data, 'base64') AS data FROM attachment_chunks
     WHERE attachment_id = $1 AND upload_id = $2 AND seq = $3`,
    [attachmentId, uploadId, seq],
  );
  return row ? Buffer.from(row.data, "base64") : null;
}

/** Delete the chunks of one upload attempt (failed, aborted or replaced). */
export async function deleteUploadChunks(
  db: Db,
  attachmentId: string,
  uploadId: string,
): Promise<void> {
  await db.query("DELETE FROM attachment_chunks WHERE attachment_id = $1 AND upload_id = $2", [
    attachmentId,
    uploadId,
  ]);
}

/** Delete every chunk of an attachment except those of `keepUploadId` (all when null). */
export async function deleteChunksExcept(
  db: Db,
  attachmentId: string,
  keepUploadId: string | null,
): Promise<void> {
  await db.query(
    "DELETE FROM attachment_chunks WHERE attachment_id = $1 AND upload_id IS DISTINCT FROM $2",
    [attachmentId, keepUploadId],
  );
}
