import { randomUUID } from "node:crypto";
import {
  ATTACHMENT_CONTENT_TYPES,
  Limits,
  ParticipantPath,
  type CompleteAttachmentUploadRequest,
  type GetAttachmentRequest,
  type GetAttachmentResponse,
  type StartAttachmentUploadRequest,
  type StartAttachmentUploadResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { isoAt } from "../../clock.js";
import {
  ATTACHMENTS_PER_CONTACT_QUOTA,
  attachmentQuotaExceeded,
  countLiveAttachments,
  findAttachment,
  insertAttachment,
  UPLOAD_URL_TTL_MS,
} from "../../contact-centre/attachments-repo.js";
import { lockContact } from "../../contact-centre/contacts-repo.js";
import { findResponse, recordResponse } from "../../contact-centre/idempotency-repo.js";
import { hashRequest } from "../../contact-centre/tokens.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { completeUploadBody, getAttachmentBody, startUploadBody } from "../schemas.js";
import { signedAttachmentUrl } from "../signed-url.js";

/** GetAttachment's URL lifetime when UrlExpiryInSeconds is not given. */
export const DEFAULT_DOWNLOAD_TTL_SECONDS = 300;

/**
 * StartAttachmentUpload, CompleteAttachmentUpload and GetAttachment (protocol §1.7, §1.8).
 * A contact holds at most ATTACHMENTS_PER_CONTACT_QUOTA attachments, completed or started and not
 * expired: Start refuses a new upload once it is reached, Complete (checked under the contact's
 * lock) refuses one when the completed ones alone reached it.
 */
export function registerAttachments(app: FastifyInstance, ctx: ParticipantContext): void {
  const { db, centre } = ctx.deps;

  app.post<{ Body: StartAttachmentUploadRequest }>(
    ParticipantPath.StartAttachmentUpload,
    { preValidation: authHook(ctx, "connection"), schema: { body: startUploadBody } },
    async (request): Promise<StartAttachmentUploadResponse> => {
      const { participant, contact } = callerOf(request);
      if (!ctx.deps.config.attachmentsEnabled)
        throw Errors.accessDenied("Attachments are not enabled on this contact centre.");
      const body = request.body;
      // MIME types are case-insensitive (as in the SDK model): compared, stored, signed and
      // delivered lower-cased (docs/wire-decisions.md).
      const contentType = body.ContentType.toLowerCase();
      if (!ATTACHMENT_CONTENT_TYPES.includes(contentType)) {
        throw Errors.validation(
          `ContentType ${body.ContentType} is not an accepted attachment type.`,
        );
      }
      if (body.AttachmentSizeInBytes > Limits.ATTACHMENT_MAX_BYTES) {
        throw Errors.validation(
          `AttachmentSizeInBytes ${body.AttachmentSizeInBytes} exceeds the maximum of ${Limits.ATTACHMENT_MAX_BYTES} bytes.`,
        );
      }
      const now = ctx.clock.now();
      const key = {
        participantId: participant.participantId,
        operation: "StartAttachmentUpload",
        clientToken: body.ClientToken,
        requestHash: hashRequest([contentType, body.AttachmentSizeInBytes, body.AttachmentName]),
      };
      // Under the contact's lock, so that two requests with one ClientToken create one
      // attachment and two uploads cannot both pass the quota.
      // The URL expires with the pending upload: a replayed request gets its first expiry.
      const { attachmentId, expires } = await db.transaction(async (tx) => {
        await lockContact(tx, contact.contactId);
        const previous = await findResponse<{ AttachmentId: string }>(tx, key, isoAt(now));
        const earlier = previous && (await findAttachment(tx, previous.AttachmentId));
        if (earlier) {
          const started = Date.parse(earlier.createdAt);
          return { attachmentId: earlier.attachmentId, expires: started + UPLOAD_URL_TTL_MS };
        }
        const live = await countLiveAttachments(tx, contact.contactId, isoAt(now));
        if (live >= ATTACHMENTS_PER_CONTACT_QUOTA) throw attachmentQuotaExceeded();
        const id = randomUUID();
        await insertAttachment(tx, {
          attachmentId: id,
          contactId: contact.contactId,
          participantId: participant.participantId,
          contentType,
          name: body.AttachmentName,
          sizeBytes: body.AttachmentSizeInBytes,
          createdAt: isoAt(now),
          expiresAt: isoAt(now + UPLOAD_URL_TTL_MS),
        });
        await recordResponse(tx, key, { AttachmentId: id }, isoAt(now));
        return { attachmentId: id, expires: now + UPLOAD_URL_TTL_MS };
      });
      return {
        AttachmentId: attachmentId,
        UploadMetadata: {
          Url: signedAttachmentUrl(ctx, "PUT", attachmentId, expires),
          UrlExpiry: isoAt(expires),
          HeadersToInclude: { "Content-Type": contentType },
        },
      };
    },
  );

  app.post<{ Body: CompleteAttachmentUploadRequest }>(
    ParticipantPath.CompleteAttachmentUpload,
    { preValidation: authHook(ctx, "connection"), schema: { body: completeUploadBody } },
    async (request) => {
      const { participant, contact } = callerOf(request);
      const attachmentId = request.body.AttachmentIds[0]!;
      const key = {
        participantId: participant.participantId,
        operation: "CompleteAttachmentUpload",
        clientToken: request.body.ClientToken,
        requestHash: hashRequest([attachmentId]),
      };
      if (await findResponse(db, key, isoAt(ctx.clock.now()))) return {};
      const attachment = await findAttachment(db, attachmentId);
      if (!attachment || attachment.participantId !== participant.participantId) {
        throw Errors.validation(`Attachment ${attachmentId} was not found.`);
      }
      await centre.postAttachment(contact.contactId, participant.participantId, { attachmentId });
      await recordResponse(db, key, {}, isoAt(ctx.clock.now()));
      return {};
    },
  );

  app.post<{ Body: GetAttachmentRequest }>(
    ParticipantPath.GetAttachment,
    { preValidation: authHook(ctx, "connection"), schema: { body: getAttachmentBody } },
    async (request): Promise<GetAttachmentResponse> => {
      const { contact } = callerOf(request);
      const attachment = await findAttachment(db, request.body.AttachmentId);
      if (
        !attachment ||
        attachment.contactId !== contact.contactId ||
        attachment.status !== "completed"
      ) {
        throw Errors.validation(`Attachment ${request.body.AttachmentId} was not found.`);
      }
      const seconds = request.body.UrlExpiryInSeconds ?? DEFAULT_DOWNLOAD_TTL_SECONDS;
      const expires = ctx.clock.now() + seconds * 1000;
      return {
        Url: signedAttachmentUrl(ctx, "GET", attachment.attachmentId, expires),
        UrlExpiry: isoAt(expires),
        AttachmentSizeInBytes: attachment.sizeBytes,
      };
    },
  );
}
