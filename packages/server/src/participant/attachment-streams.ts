import { Readable } from "node:stream";
import { CHUNK_BYTES, readChunk, writeChunk } from "../contact-centre/attachment-chunks-repo.js";
import { Errors, type ServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { atMinimumRate, type MinimumRate } from "./minimum-rate.js";

/** The 400 of an upload whose length is not the size StartAttachmentUpload declared. */
export function sizeMismatch(received: number | string, declared: number): ServiceError {
  return Errors.validation(
    `The upload has ${received} bytes; StartAttachmentUpload declared ${declared}.`,
  );
}

/**
 * Write an upload body to the store as chunks of CHUNK_BYTES under `uploadId`, reading the
 * next piece only once the last chunk is written (backpressure), so an upload holds about one
 * chunk whatever its size. Throws ValidationException as soon as the body passes `declared`
 * bytes, when it ends short of it, or when it arrives slower than `minimumRate`; the stream's
 * error when the client aborts. The chunks written so far are the caller's to delete when it
 * throws.
 */
export async function writeUploadChunks(
  db: Db,
  attachmentId: string,
  uploadId: string,
  body: Readable,
  declared: number,
  minimumRate?: MinimumRate,
): Promise<void> {
  // Not destroyed when refused early: the 400 must still reach the client (see the caller).
  const stream = body.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>;
  const received = minimumRate ? atMinimumRate(stream, minimumRate) : stream;
  let pieces: Buffer[] = [];
  let gathered = 0;
  let total = 0;
  let seq = 0;
  for await (const piece of received) {
    total += piece.length;
    if (total > declared) throw sizeMismatch(`more than ${declared}`, declared);
    pieces.push(piece);
    gathered += piece.length;
    while (gathered >= CHUNK_BYTES) {
      const all = Buffer.concat(pieces, gathered);
      await writeChunk(db, attachmentId, uploadId, seq++, all.subarray(0, CHUNK_BYTES));
      // A copy: a view would keep the whole concatenation alive.
      const rest = Buffer.from(all.subarray(CHUNK_BYTES));
      pieces = rest.length > 0 ? [rest] : [];
      gathered = rest.length;
    }
  }
  if (total !== declared) throw sizeMismatch(total, declared);
  if (gathered > 0) await writeChunk(db, attachmentId, uploadId, seq, Buffer.concat(pieces));
}

/**
 * The bytes of an upload as a stream, read one chunk at a time as the client takes them: a
 * slow download holds a chunk or two, never the file.
 */
export function readUploadChunks(db: Db, attachmentId: string, uploadId: string): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const chunk = await readChunk(db, attachmentId, uploadId, seq);
      if (!chunk) return;
      yield chunk;
    }
  }
  // Byte mode with a 1-byte high-water mark: it reads ahead one chunk at most (object mode,
  // Readable.from's default, would read ahead 16).
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
}
