/** Attachments from the visitor (decision 8): accepted types up to 20 MB, with upload progress. */
import { ATTACHMENT_CONTENT_TYPES, Limits } from "@chat-widget/protocol";
import type { ChatConnection } from "../chat/adapter.js";
import type { Logger } from "../logger.js";
import { Text } from "../texts.js";
import type { Store } from "./store.js";

/** Why a file cannot be attached, or null when it can. */
export function attachmentProblem(file: { type: string; size: number }): string | null {
  if (!ATTACHMENT_CONTENT_TYPES.includes(file.type))
    return `Unsupported file type: ${file.type || "unknown"}`;
  if (file.size > Limits.ATTACHMENT_MAX_BYTES) return "File is larger than 20 MB";
  return null;
}

let uploads = 0;

/** Upload one file, showing its progress in the store until it is done. */
export async function uploadAttachment(
  connection: ChatConnection,
  file: File,
  store: Store,
  logger: Logger,
): Promise<void> {
  const problem = attachmentProblem(file);
  if (problem !== null) {
    logger.error(Text.UNABLE_TO_SEND, problem);
    return;
  }
  const id = `upload-${++uploads}`;
  store.dispatch({ type: "uploadStarted", upload: { id, name: file.name, progress: null } });
  try {
    await connection.sendAttachment(file, (progress) =>
      store.dispatch({ type: "uploadProgress", id, progress }),
    );
  } catch (error) {
    logger.error(Text.UNABLE_TO_SEND, error);
  } finally {
    store.dispatch({ type: "uploadEnded", id });
  }
}
