/** Attachments from the visitor (docs/product.md §3, docs/decisions.md #8): the accepted kinds up to 20 MB, with upload progress. */
import { ContentType, Limits } from "@chat-widget/protocol";
import type { ChatConnection } from "../chat/adapter.js";
import type { Logger } from "../logger.js";
import { Text, en } from "../texts.js";

/** Why a file was not sent: the key of its reason in the locale's texts. */
export type FileProblem = "UNSUPPORTED_FILE_TYPE" | "FILE_TOO_LARGE" | "UPLOAD_FAILED";
import type { Store } from "./store.js";

/**
 * Spec §3 "Attachments accepted: pdf, jpeg, png, doc, xls, ppt, csv, wav": the widget's file
 * picker and check (narrower than the protocol's ATTACHMENT_CONTENT_TYPES); wav has three type names.
 */
export const WIDGET_ATTACHMENT_TYPES: readonly string[] = [
  ContentType.APPLICATION_PDF,
  ContentType.IMAGE_JPG,
  ContentType.IMAGE_PNG,
  ContentType.APPLICATION_DOC,
  ContentType.APPLICATION_XLS,
  ContentType.APPLICATION_PPT,
  ContentType.TEXT_CSV,
  ContentType.AUDIO_WAV,
  ContentType.AUDIO_X_WAV,
  ContentType.AUDIO_VND_WAVE,
];

/** Why a file cannot be attached (shown beside "This file can't be sent"), or null when it can. */
export function attachmentProblem(file: { type: string; size: number }): FileProblem | null {
  if (!WIDGET_ATTACHMENT_TYPES.includes(file.type)) return "UNSUPPORTED_FILE_TYPE";
  if (file.size > Limits.ATTACHMENT_MAX_BYTES) return "FILE_TOO_LARGE";
  return null;
}

let uploads = 0;

/**
 * Upload one file, showing its progress in the store until it is done. Resolves to null once
 * it is sent, else to why it was not (refused before upload, or the upload failed).
 */
export async function uploadAttachment(
  connection: ChatConnection,
  file: File,
  store: Store,
  logger: Logger,
): Promise<FileProblem | null> {
  const problem = attachmentProblem(file);
  if (problem !== null) {
    logger.error(
      Text.UNABLE_TO_SEND,
      `${en[problem]}: ${file.type || "unknown"}, ${file.size} bytes`,
    );
    return problem;
  }
  const id = `upload-${++uploads}`;
  store.dispatch({ type: "uploadStarted", upload: { id, name: file.name, progress: null } });
  try {
    await connection.sendAttachment(file, (progress) =>
      store.dispatch({ type: "uploadProgress", id, progress }),
    );
    return null;
  } catch (error) {
    logger.error(Text.UNABLE_TO_SEND, error);
    return "UPLOAD_FAILED";
  } finally {
    store.dispatch({ type: "uploadEnded", id });
  }
}
