import { sign, verifySignature } from "../contact-centre/tokens.js";
import { Errors } from "../errors.js";
import { publicBase, type ParticipantContext } from "./context.js";

/** Where attachment bytes are uploaded (PUT) and downloaded (GET) with signed, expiring URLs. */
export const ATTACHMENT_FILE_PATH = "/participant/attachments";

type Method = "PUT" | "GET";

const payload = (method: Method, attachmentId: string, expires: number): string =>
  `${method}\n${attachmentId}\n${expires}`;

export function signedAttachmentUrl(
  ctx: ParticipantContext,
  method: Method,
  attachmentId: string,
  expires: number,
): string {
  const signature = sign(ctx.deps.config.tokenSecret, payload(method, attachmentId, expires));
  return `${publicBase(ctx)}${ATTACHMENT_FILE_PATH}/${encodeURIComponent(attachmentId)}?expires=${expires}&signature=${signature}`;
}

/** Throws AccessDeniedException unless the URL was signed by this deployment and has not expired. */
export function verifyAttachmentUrl(
  ctx: ParticipantContext,
  method: Method,
  attachmentId: string,
  expires: number,
  signature: string,
): void {
  if (
    !verifySignature(ctx.deps.config.tokenSecret, payload(method, attachmentId, expires), signature)
  ) {
    throw Errors.accessDenied("The URL signature is not valid.");
  }
  if (ctx.clock.now() >= expires) throw Errors.accessDenied("The URL has expired.");
}
