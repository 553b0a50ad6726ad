import { randomUUID } from "node:crypto";
import { Limits } from "@chat-widget/protocol";
import type { FastifyError, FastifyInstance } from "fastify";
import { isoAt } from "../../clock.js";
import { startUploadExpirySweeper } from "../../contact-centre/attachment-expiry.js";
import { deleteUploadChunks } from "../../contact-centre/attachment-chunks-repo.js";
import {
  findAttachment,
  finishUpload,
  UPLOAD_URL_TTL_MS,
  uploadExpired,
  type AttachmentRecord,
} from "../../contact-centre/attachments-repo.js";
import { Errors, isServiceError } from "../../errors.js";
import { handleError } from "../../http/errors.js";
import { readUploadChunks, sizeMismatch, writeUploadChunks } from "../attachment-streams.js";
import type { ParticipantContext } from "../context.js";
import { signedFileParams, signedFileQuery } from "../schemas.js";
import { ATTACHMENT_FILE_PATH, verifyAttachmentUrl } from "../signed-url.js";
import { UPLOAD_GRACE_MS } from "../minimum-rate.js";
import { uploadSlots } from "../upload-slots.js";
import { addressKey } from "../../http/client-address.js";

interface FileRequest {
  Params: { attachmentId: string };
  Querystring: { expires: number; signature: string };
}

const mediaType = (value: string | undefined): string =>
  (value ?? "").split(";")[0]!.trim().toLowerCase();

// As S3 answers a presigned PUT that is too large: 400 (EntityTooLarge), not 413.
const tooLarge = () =>
  Errors.validation(`The file is larger than ${Limits.ATTACHMENT_MAX_BYTES} bytes.`);

const urlExpired = () => Errors.accessDenied("The URL has expired.");
const alreadyCompleted = (attachmentId: string) =>
  Errors.conflict(`Attachment ${attachmentId} has already been completed.`);

/**
 * Everything that refuses an upload without reading its body: attachment, state, Content-Type
 * and the Content-Length against the declared size. A body sent without Content-Length
 * (chunked) is measured as it streams.
 */
function checkUpload(
  attachment: AttachmentRecord,
  headers: Record<string, string | string[] | undefined>,
  at: string,
): void {
  if (attachment.status === "completed") throw alreadyCompleted(attachment.attachmentId);
  if (uploadExpired(attachment, at)) throw urlExpired();
  if (mediaType(headers["content-type"] as string | undefined) !== attachment.contentType) {
    throw Errors.validation(
      `Content-Type must be ${attachment.contentType}, as given by HeadersToInclude.`,
    );
  }
  const length = headers["content-length"];
  const chunked = headers["transfer-encoding"] !== undefined;
  if (typeof length === "string" && !chunked) {
    const bytes = Number(length);
    if (bytes > Limits.ATTACHMENT_MAX_BYTES) throw tooLarge();
    if (bytes !== attachment.sizeBytes) throw sizeMismatch(bytes, attachment.sizeBytes);
  } else if (!chunked) {
    throw sizeMismatch(0, attachment.sizeBytes);
  }
}

/**
 * The signed upload (PUT, raw bytes with the HeadersToInclude) and download (GET) URLs.
 * Bytes are streamed to and from the database in chunks (attachment-streams.ts), never held
 * whole; at most MAX_CONCURRENT_UPLOADS uploads are read at once (upload-slots.ts). Registered
 * in its own scope: every body is a raw stream.
 */
export async function registerAttachmentFiles(
  app: FastifyInstance,
  ctx: ParticipantContext,
): Promise<void> {
  const { db } = ctx.deps;
  const slots = uploadSlots(undefined, () => ctx.deps.refusals.count("upload_busy"));
  const { uploadMinBytesPerSecond } = ctx.deps.config;
  const minimumRate = uploadMinBytesPerSecond
    ? { bytesPerSecond: uploadMinBytesPerSecond, graceMs: UPLOAD_GRACE_MS }
    : undefined;
  // No upload request outlives the server's request timeout: past it, none can still be
  // writing the chunks of an expired upload.
  const stopSweeper = startUploadExpirySweeper(
    db,
    ctx.clock,
    ctx.deps.config.requestTimeoutMs,
    (err) => app.log.warn({ err }, "attachment expiry sweep failed"),
  );
  app.addHook("onClose", async () => stopSweeper());

  app.setErrorHandler((error: FastifyError, request, reply) =>
    handleError(error.statusCode === 413 ? tooLarge() : error, request, reply),
  );
  app.removeAllContentTypeParsers();
  // The body stays unread in request.raw: the handler checks the request before reading it.
  // (Not handed on as request.body: the participant scope's text guard would walk the stream.)
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

  app.put<FileRequest>(
    `${ATTACHMENT_FILE_PATH}/:attachmentId`,
    { schema: { params: signedFileParams, querystring: signedFileQuery } },
    async (request, reply) => {
      const { attachmentId } = request.params;
      verifyAttachmentUrl(ctx, "PUT", attachmentId, request.query.expires, request.query.signature);
      const attachment = await findAttachment(db, attachmentId);
      if (!attachment) throw Errors.accessDenied("The URL signature is not valid.");
      checkUpload(attachment, request.headers, isoAt(ctx.clock.now()));

      const release = slots.acquire({
        attachmentId,
        contactId: attachment.contactId,
        address: addressKey(request.ip),
      });
      const uploadId = randomUUID();
      try {
        try {
          await writeUploadChunks(
            db,
            attachmentId,
            uploadId,
            request.raw,
            attachment.sizeBytes,
            minimumRate,
          );
        } catch (error) {
          // Refused before its end: the rest of the body is not read, so the connection
          // cannot carry another request; it closes once the answer is sent.
          if (!request.raw.complete) reply.header("connection", "close");
          await deleteUploadChunks(db, attachmentId, uploadId);
          // A client that went away gets no answer; its upload is simply not stored.
          if (request.raw.destroyed && !isServiceError(error)) {
            throw Errors.validation("The upload was interrupted before its last byte.");
          }
          throw error;
        }
        const completeBy = isoAt(ctx.clock.now() + UPLOAD_URL_TTL_MS);
        if (!(await finishUpload(db, attachmentId, uploadId, completeBy))) {
          await deleteUploadChunks(db, attachmentId, uploadId);
          const now = await findAttachment(db, attachmentId);
          throw now?.status === "completed" ? alreadyCompleted(attachmentId) : urlExpired();
        }
      } finally {
        release();
      }
      return reply.code(200).send();
    },
  );

  app.get<FileRequest>(
    `${ATTACHMENT_FILE_PATH}/:attachmentId`,
    { schema: { params: signedFileParams, querystring: signedFileQuery } },
    async (request, reply) => {
      const { attachmentId } = request.params;
      verifyAttachmentUrl(ctx, "GET", attachmentId, request.query.expires, request.query.signature);
      const attachment = await findAttachment(db, attachmentId);
      if (!attachment || attachment.status !== "completed" || !attachment.uploadId) {
        throw Errors.notFound(`Attachment ${attachmentId} was not found.`);
      }
      return reply
        .header("Content-Type", attachment.contentType)
        .header("Content-Length", String(attachment.sizeBytes))
        .header(
          "Content-Disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
        )
        .header("X-Content-Type-Options", "nosniff")
        .header("Cache-Control", "private, max-age=300")
        .send(readUploadChunks(db, attachmentId, attachment.uploadId));
    },
  );
}
