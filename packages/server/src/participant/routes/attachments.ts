import {
  ATTACHMENT_CONTENT_TYPES,
  attachmentNameProblem,
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
import { findAttachment } from "../../contact-centre/attachments-repo.js";
import { findContact } from "../../contact-centre/contacts-repo.js";
import type { Contact } from "../../contact-centre/types.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { completeUploadBody, getAttachmentBody, startUploadBody } from "../schemas.js";
import { signedAttachmentUrl } from "../signed-url.js";

/** GetAttachment's URL lifetime when UrlExpiryInSeconds is not given. */
export const DEFAULT_DOWNLOAD_TTL_SECONDS = 300;

/**
 * StartAttachmentUpload, CompleteAttachmentUpload and GetAttachment (docs/protocol.md §1.7, §1.8).
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
      const nameProblem = attachmentNameProblem(body.AttachmentName, contentType);
      if (nameProblem) {
        ctx.deps.refusals.count("attachment_name_refused");
        throw Errors.validation(nameProblem);
      }
      if (body.AttachmentSizeInBytes > Limits.ATTACHMENT_MAX_BYTES) {
        throw Errors.validation(
          `AttachmentSizeInBytes ${body.AttachmentSizeInBytes} exceeds the maximum of ${Limits.ATTACHMENT_MAX_BYTES} bytes.`,
        );
      }
      const { attachmentId, expires } = await centre.startAttachmentUpload(
        contact.contactId,
        participant.participantId,
        {
          contentType,
          name: body.AttachmentName,
          sizeBytes: body.AttachmentSizeInBytes,
          clientToken: body.ClientToken,
        },
      );
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
      await centre.postAttachment(contact.contactId, participant.participantId, {
        attachmentId: request.body.AttachmentIds[0]!,
        clientToken: request.body.ClientToken,
      });
      return {};
    },
  );

  /**
   * A file of the caller's contact, or of an earlier chat of its session (a persistent chat shows
   * the past conversation's files: contact-centre/rehydration.ts).
   */
  const inSession = async (contactId: string, caller: Contact): Promise<boolean> =>
    contactId === caller.contactId ||
    (caller.initialContactId !== caller.contactId &&
      (await findContact(db, contactId))?.initialContactId === caller.initialContactId);

  app.post<{ Body: GetAttachmentRequest }>(
    ParticipantPath.GetAttachment,
    { preValidation: authHook(ctx, "connection"), schema: { body: getAttachmentBody } },
    async (request): Promise<GetAttachmentResponse> => {
      const { contact } = callerOf(request);
      const attachment = await findAttachment(db, request.body.AttachmentId);
      if (
        !attachment ||
        !(await inSession(attachment.contactId, contact)) ||
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
