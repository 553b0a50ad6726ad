/**
 * A fetch for one chat session that reports attachment progress: the upload PUT goes through
 * XMLHttpRequest (whose upload events fetch lacks) and a download GET is read chunk by chunk.
 * The chat client still makes every call; this only watches the bytes move.
 */
import type { FetchLike } from "./env.js";

export type ProgressListener = (loaded: number, total: number) => void;

export interface ProgressFetch {
  fetch: FetchLike;
  /** Where the next transfers report to (null: nowhere). */
  listener: ProgressListener | null;
}

type XhrFactory = () => XMLHttpRequest;

export function createProgressFetch(
  base: FetchLike = (input, init) => globalThis.fetch(input, init),
  xhr: XhrFactory | null = typeof XMLHttpRequest === "undefined"
    ? null
    : () => new XMLHttpRequest(),
): ProgressFetch {
  const state: ProgressFetch = {
    listener: null,
    fetch: (input, init) => {
      const method = (init?.method ?? "GET").toUpperCase();
      if (method === "PUT" && xhr)
        return upload(xhr(), input, init ?? {}, (l, t) => state.listener?.(l, t));
      if (method === "GET") return download(base, input, init, (l, t) => state.listener?.(l, t));
      return base(input, init);
    },
  };
  return state;
}

function upload(
  request: XMLHttpRequest,
  url: string,
  init: RequestInit,
  report: ProgressListener,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    request.open("PUT", url);
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) {
      request.setRequestHeader(name, value);
    }
    request.upload.onprogress = (e) => report(e.loaded, e.lengthComputable ? e.total : 0);
    request.onload = () => {
      report(1, 1);
      resolve(new Response(null, { status: request.status === 0 ? 200 : request.status }));
    };
    request.onerror = () => reject(new TypeError("Failed to fetch"));
    request.send(init.body as XMLHttpRequestBodyInit | null);
  });
}

async function download(
  base: FetchLike,
  url: string,
  init: RequestInit | undefined,
  report: ProgressListener,
): Promise<Response> {
  const response = await base(url, init);
  if (!response.ok || !response.body) return response;
  const total = Number(response.headers.get("content-length") ?? 0) || 0;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  report(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    report(loaded, total);
  }
  const type = response.headers.get("content-type") ?? "application/octet-stream";
  return new Response(new Blob(chunks as BlobPart[], { type }), {
    status: response.status,
    headers: { "content-type": type },
  });
}
