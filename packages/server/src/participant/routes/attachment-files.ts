import { Limits } from "@chat-widget/protocol";
import type { FastifyError, FastifyInstance } from "fastify";
import {
  findAttachment,
  readAttachmentData,
  storeAttachmentData,
} from "../../contact-centre/attachments-repo.js";
import { Errors } from "../../errors.js";
import { handleError } from "../../http/errors.js";
import type { ParticipantContext } from "../context.js";
import { signedFileParams, signedFileQuery } from "../schemas.js";
import { ATTACHMENT_FILE_PATH, verifyAttachmentUrl } from "../signed-url.js";

interface FileRequest {
  Params: { attachmentId: string };
  Querystring: { expires: number; signature: string };
}

const mediaType = (value: string | undefined): string =>
  (value ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * The signed upload (PUT, raw bytes with the HeadersToInclude) and download (GET) URLs.
 * Bytes are stored in the database. Registered in its own scope: every body is raw bytes.
 */
export async function registerAttachmentFiles(
  app: FastifyInstance,
  ctx: ParticipantContext,
): Promise<void> {
  const { db } = ctx.deps;
  // As S3 answers a presigned PUT that is too large: 400 (EntityTooLarge), not 413.
  app.setErrorHandler((error: FastifyError, request, reply) =>
    handleError(
      error.statusCode === 413
        ? Errors.validation(`The file is larger than ${Limits.ATTACHMENT_MAX_BYTES} bytes.`)
        : error,
      request,
      reply,
    ),
  );
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "*",
    { parseAs: "buffer", bodyLimit: Limits.ATTACHMENT_MAX_BYTES + 1024 },
    (_request, body, done) => done(null, body),
  );

  app.put<FileRequest>(
    `${ATTACHMENT_FILE_PATH}/:attachmentId`,
    { schema: { params: signedFileParams, querystring: signedFileQuery } },
    async (request, reply) => {
      const { attachmentId } = request.params;
      verifyAttachmentUrl(ctx, "PUT", attachmentId, request.query.expires, request.query.signature);
      const attachment = await findAttachment(db, attachmentId);
      if (!attachment) throw Errors.accessDenied("The URL signature is not valid.");
      const type = mediaType(request.headers["content-type"]);
      if (type !== attachment.contentType.toLowerCase()) {
        throw Errors.validation(
          `Content-Type must be ${attachment.contentType}, as given by HeadersToInclude.`,
        );
      }
      const body = request.body;
      const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      if (bytes.length !== attachment.sizeBytes) {
        throw Errors.validation(
          `The upload has ${bytes.length} bytes; StartAttachmentUpload declared ${attachment.sizeBytes}.`,
        );
      }
      if (!(await storeAttachmentData(db, attachmentId, bytes))) {
        throw Errors.conflict(`Attachment ${attachmentId} has already been completed.`);
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
      const data = attachment ? await readAttachmentData(db, attachmentId) : null;
      if (!attachment || !data) throw Errors.notFound(`Attachment ${attachmentId} was not found.`);
      return reply
        .header("Content-Type", attachment.contentType)
        .header(
          "Content-Disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
        )
        .header("X-Content-Type-Options", "nosniff")
        .header("Cache-Control", "private, max-age=300")
        .send(Buffer.from(data));
    },
  );
}
