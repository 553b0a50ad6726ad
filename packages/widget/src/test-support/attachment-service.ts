/**
 * The attachment side of the participant service, faked for the real adapter (docs/protocol.md §1.7,
 * §1.8): uploads are PUT through XMLHttpRequest and downloads are GET as a streamed body, and
 * the test moves each transfer's bytes itself, so their progress events can interleave.
 */
import { createProgressFetch } from "@chat-widget/chat-client";
import type { FetchLike, ProgressFetch } from "@chat-widget/chat-client";
import { ParticipantPath } from "@chat-widget/protocol";

export const SERVICE = "http://127.0.0.1:8080";

class FakeXhr {
  url = "";
  status = 200;
  upload: {
    onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(private readonly opened: (xhr: FakeXhr) => void) {}
  open(_method: string, url: string) {
    this.url = url;
    this.opened(this);
  }
  setRequestHeader() {}
  send() {}
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });

export function fakeAttachmentService() {
  const puts = new Map<string, FakeXhr>();
  const gets = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
  const sizes = new Map<string, number>();

  const fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    const body = JSON.parse(String(init?.body ?? "{}")) as Record<string, string>;
    switch (path) {
      case ParticipantPath.StartAttachmentUpload:
        return json({
          AttachmentId: `att-${body.AttachmentName}`,
          UploadMetadata: {
            Url: `${SERVICE}/uploads/${body.AttachmentName}`,
            UrlExpiry: "2025-01-01T10:05:00.000Z",
            HeadersToInclude: {},
          },
        });
      case ParticipantPath.CompleteAttachmentUpload:
        return json({});
      case ParticipantPath.GetAttachment:
        return json({
          Url: `${SERVICE}/files/${body.AttachmentId}`,
          UrlExpiry: "2025-01-01T10:05:00.000Z",
        });
    }
    const id = path.replace("/files/", "");
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void gets.set(id, c) });
    return new Response(stream, { headers: { "content-length": String(sizes.get(id) ?? 0) } });
  };
  const xhr = () =>
    new FakeXhr((x) => puts.set(x.url.replace(`${SERVICE}/uploads/`, ""), x)) as never;

  return {
    /** What the widget hands the adapter: the client's progress fetch over this service. */
    progressFetch: (): ProgressFetch => createProgressFetch(fetch, xhr),
    /** Names of the files whose PUT has been opened. */
    uploading: () => [...puts.keys()],
    /** Ids of the attachments whose GET has begun. */
    downloading: () => [...gets.keys()],
    /** The PUT of the file with this name: move its bytes, then finish it. */
    upload(name: string) {
      const put = () => {
        const x = puts.get(name);
        if (!x) throw new Error(`no upload of ${name}`);
        return x;
      };
      return {
        sent: (loaded: number, total: number) =>
          put().upload.onprogress?.({ loaded, total, lengthComputable: true }),
        finish: () => put().onload?.(),
      };
    },
    /** The file behind this attachment id (`size` bytes): stream its bytes, then end it. */
    download(attachmentId: string, size: number) {
      sizes.set(attachmentId, size);
      const get = () => {
        const c = gets.get(attachmentId);
        if (!c) throw new Error(`no download of ${attachmentId}`);
        return c;
      };
      return {
        received: (bytes: number) => get().enqueue(new Uint8Array(bytes)),
        end: () => get().close(),
      };
    },
  };
}
