/**
 * Attachments (docs/product.md §4): request an upload, PUT the file to the returned URL with the
 * returned headers, then complete the upload with the attachment id. Downloading asks for a
 * URL and fetches the file from it.
 */
import type { ParticipantClient, ResponseMetadata } from "../api/participant-client.js";
import { toRequestError } from "../core/errors.js";
import type { FetchLike } from "../env.js";

/** A file to send: a browser `File`, or any Blob with a name. */
export interface AttachmentInput {
  name: string;
  type: string;
  size: number;
}

/** What sendAttachment resolves with (in `data`): the new attachment's id. */
export interface AttachmentUploadResult {
  AttachmentId: string;
  $metadata: ResponseMetadata;
}

export async function uploadAttachment(
  client: ParticipantClient,
  fetch: FetchLike,
  token: string,
  attachment: AttachmentInput,
): Promise<AttachmentUploadResult> {
  const started = await client.startAttachmentUpload(
    token,
    attachment.type,
    attachment.size,
    attachment.name,
  );
  const { Url, HeadersToInclude } = started.UploadMetadata;
  // chatjs does not check the upload's status before completing (docs/protocol.md §1.7).
  await fetch(Url, {
    method: "PUT",
    headers: HeadersToInclude,
    body: attachment as unknown as BodyInit,
  });
  const completed = await client.completeAttachmentUpload(token, started.AttachmentId);
  return { $metadata: completed.$metadata, AttachmentId: started.AttachmentId };
}

export async function downloadAttachment(
  client: ParticipantClient,
  fetch: FetchLike,
  token: string,
  attachmentId: string,
): Promise<Blob> {
  const { Url } = await client.getAttachment(token, attachmentId);
  const response = await fetch(Url, { method: "GET" });
  if (!response.ok) {
    throw toRequestError(
      String(response.status),
      `Failed to download attachment ${attachmentId}`,
      response.status,
    );
  }
  return response.blob();
}
