/**
 * Each attachment transfer reports its own progress (docs/decisions.md #8), however many run at once.
 * The chat client makes every request through the session's one fetch; this fetch tells a
 * transfer's bytes apart by what the client sends: an upload PUTs the very file it was
 * given, and a download GETs the URL that GetAttachment returned for its attachment id. Each
 * such request gets a progress fetch (the client's `createProgressFetch`) of its own.
 */
import type { FetchLike, ProgressFetch, ProgressListener } from "@chat-widget/chat-client";
import { ParticipantPath } from "@chat-widget/protocol";

export type OnProgress = (fraction: number) => void;

export interface TransferProgress {
  /** The session's fetch (its `env.fetch`). */
  readonly fetch: FetchLike;
  /** Run the upload of `file`: the PUT that carries it reports to `onProgress`. */
  upload<T>(file: object, onProgress: OnProgress, transfer: () => Promise<T>): Promise<T>;
  /** Run the download of `attachmentId`: the GET of its URL reports to `onProgress`. */
  download<T>(attachmentId: string, onProgress: OnProgress, transfer: () => Promise<T>): Promise<T>;
}

const toFraction =
  (onProgress: OnProgress): ProgressListener =>
  (loaded, total) => {
    if (total > 0) onProgress(Math.min(1, loaded / total));
  };

/** The attachment id a GetAttachment request asks for, or null for any other request. */
function askedAttachmentId(url: string, init: RequestInit | undefined): string | null {
  if ((init?.method ?? "GET").toUpperCase() !== "POST") return null;
  if (!new URL(url, "http://x").pathname.endsWith(ParticipantPath.GetAttachment)) return null;
  try {
    const body = JSON.parse(typeof init?.body === "string" ? init.body : "") as {
      AttachmentId?: unknown;
    };
    return typeof body.AttachmentId === "string" ? body.AttachmentId : null;
  } catch {
    return null;
  }
}

async function signedUrl(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { Url?: unknown };
    return typeof body.Url === "string" ? body.Url : null;
  } catch {
    return null;
  }
}

export function createTransferProgress(progressFetch: () => ProgressFetch): TransferProgress {
  const unwatched = progressFetch();
  const uploads = new Map<unknown, ProgressListener>();
  const downloads = new Map<string, ProgressListener>();
  /** GetAttachment's URL → the download that asked for it. */
  const urls = new Map<string, ProgressListener>();

  const watched = (listener: ProgressListener): FetchLike => {
    const own = progressFetch();
    own.listener = listener;
    return own.fetch;
  };

  const fetch: FetchLike = async (url, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const upload = method === "PUT" ? uploads.get(init?.body) : undefined;
    if (upload) return watched(upload)(url, init);
    const download = method === "GET" ? urls.get(url) : undefined;
    if (download) {
      urls.delete(url);
      return watched(download)(url, init);
    }
    const response = await unwatched.fetch(url, init);
    const asked = downloads.size > 0 ? askedAttachmentId(url, init) : null;
    const listener = asked === null ? undefined : downloads.get(asked);
    if (listener && response.ok) {
      const signed = await signedUrl(response);
      if (signed !== null) urls.set(signed, listener);
    }
    return response;
  };

  const during = async <K, T>(
    map: Map<K, ProgressListener>,
    key: K,
    onProgress: OnProgress,
    transfer: () => Promise<T>,
  ): Promise<T> => {
    const listener = toFraction(onProgress);
    map.set(key, listener);
    try {
      return await transfer();
    } finally {
      if (map.get(key) === listener) map.delete(key);
      for (const [url, l] of urls) if (l === listener) urls.delete(url);
    }
  };

  return {
    fetch,
    upload: (file, onProgress, transfer) => during(uploads, file, onProgress, transfer),
    download: (attachmentId, onProgress, transfer) =>
      during(downloads, attachmentId, onProgress, transfer),
  };
}
