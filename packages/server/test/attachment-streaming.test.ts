import { createHash, randomBytes } from "node:crypto";
import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES } from "../src/contact-centre/attachment-chunks-repo.js";
import {
  MAX_CONCURRENT_UPLOADS,
  UPLOADS_PER_ADDRESS,
  UPLOADS_PER_CHAT,
} from "../src/participant/upload-slots.js";
import { connectParticipant, call } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { openUpload, waitFor } from "./support/raw-upload.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { StartAttachmentUpload, CompleteAttachmentUpload, GetAttachment } = ParticipantPath;
const HEADERS = { "Content-Type": "application/pdf" };

interface Started {
  AttachmentId: string;
  UploadMetadata: { Url: string };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(ENGINES)("attachment uploads streamed in chunks (%s)", (engine) => {
  let server: TestServer;
  let token: string;
  let n = 0;

  beforeAll(async () => {
    server = await startServer(engine, { env: { RATE_LIMIT_BURST: "100000" } });
    // One chat per test file is enough: no test here gets near the per-contact quota.
    const chat = await server.startChat();
    token = (await connectParticipant(server.url, chat.participantToken)).connectionToken;
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  /** A new chat's connection token (a chat holds at most UPLOADS_PER_CHAT uploads at once). */
  const newChat = async () =>
    (await connectParticipant(server.url, (await server.startChat()).participantToken))
      .connectionToken;
  const start = async (size: number, chat = token): Promise<Started> => {
    const r = await call<Started>(server.url, StartAttachmentUpload, chat, {
      ContentType: "application/pdf",
      AttachmentSizeInBytes: size,
      AttachmentName: "file.pdf",
      ClientToken: `start-${n++}`,
    });
    expect(r.status).toBe(200);
    return r.body;
  };
  const chunkCount = async (attachmentId: string): Promise<number> => {
    const [row] = await server.built.deps.db.query<{ n: unknown }>(
      "SELECT count(*) AS n FROM attachment_chunks WHERE attachment_id = $1",
      [attachmentId],
    );
    return Number(row?.n);
  };
  const status = async (attachmentId: string): Promise<string> => {
    const [row] = await server.built.deps.db.query<{ status: string }>(
      "SELECT status FROM attachments WHERE attachment_id = $1",
      [attachmentId],
    );
    return row!.status;
  };
  const put = (s: Started, bytes: Uint8Array) =>
    fetch(s.UploadMetadata.Url, { method: "PUT", headers: HEADERS, body: new Uint8Array(bytes) });
  const completeAndDownload = async (s: Started, size: number): Promise<Buffer> => {
    const done = await call(server.url, CompleteAttachmentUpload, token, {
      AttachmentIds: [s.AttachmentId],
      ClientToken: `complete-${s.AttachmentId}`,
    });
    expect(done.status).toBe(200);
    const got = await call<{ Url: string }>(server.url, GetAttachment, token, {
      AttachmentId: s.AttachmentId,
    });
    const download = await fetch(got.body.Url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(
      "attachment; filename*=UTF-8''file.pdf",
    );
    expect(download.headers.get("content-length")).toBe(String(size));
    return Buffer.from(await download.arrayBuffer());
  };

  it("stores a 3 MB upload as 512 KiB chunks and downloads exactly its bytes", async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const s = await start(bytes.length);
    expect((await put(s, bytes)).status).toBe(200);
    expect(await chunkCount(s.AttachmentId)).toBe(Math.ceil(bytes.length / CHUNK_BYTES));
    expect(sha256(await completeAndDownload(s, bytes.length))).toBe(sha256(bytes));
  });

  it("answers a body longer or shorter than declared with 400 ValidationException and stores nothing", async () => {
    const size = 2 * CHUNK_BYTES + 10;
    const s = await start(size);
    // Declared by Content-Length: refused before a byte of the body is read.
    for (const length of [size + 1, size - 1]) {
      const r = await put(s, randomBytes(length));
      expect(r.status).toBe(400);
      const body = (await r.json()) as { __type: string; message: string };
      expect(body.__type).toBe("ValidationException");
      expect(body.message).toBe(
        `The upload has ${length} bytes; StartAttachmentUpload declared ${size}.`,
      );
    }
    // Sent chunked: refused as soon as it passes the declared size (chunks already written are
    // deleted), or when it ends short.
    const long = openUpload(s.UploadMetadata.Url, HEADERS);
    long.req.end(randomBytes(size + CHUNK_BYTES));
    const longReply = await long.reply;
    expect(longReply.status).toBe(400);
    expect(JSON.parse(longReply.body).message).toBe(
      `The upload has more than ${size} bytes; StartAttachmentUpload declared ${size}.`,
    );
    const short = openUpload(s.UploadMetadata.Url, HEADERS);
    short.req.end(randomBytes(size - 1));
    expect((await short.reply).status).toBe(400);
    await waitFor(async () => (await chunkCount(s.AttachmentId)) === 0, "no chunks stored");
    expect(await status(s.AttachmentId)).toBe("pending");
    // Nothing was stored as uploaded: it cannot be completed.
    const early = await call(server.url, CompleteAttachmentUpload, token, {
      AttachmentIds: [s.AttachmentId],
      ClientToken: `early-${s.AttachmentId}`,
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/has not been uploaded/);
  });

  it("an upload aborted mid-body leaves nothing stored; a retry succeeds, and a later one replaces it", async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const s = await start(bytes.length);
    const aborted = openUpload(s.UploadMetadata.Url, HEADERS, bytes.length);
    aborted.reply.catch(() => {});
    aborted.req.write(bytes.subarray(0, CHUNK_BYTES + 1));
    // Streamed: the first chunk is in the store before the body is complete.
    await waitFor(async () => (await chunkCount(s.AttachmentId)) > 0, "the first chunk");
    aborted.req.destroy();
    await waitFor(async () => (await chunkCount(s.AttachmentId)) === 0, "the chunks deleted");
    expect(await status(s.AttachmentId)).toBe("pending");

    const other = randomBytes(bytes.length);
    expect((await put(s, other)).status).toBe(200);
    expect((await put(s, bytes)).status).toBe(200);
    // Only the last upload's chunks remain.
    expect(await chunkCount(s.AttachmentId)).toBe(Math.ceil(bytes.length / CHUNK_BYTES));
    expect(sha256(await completeAndDownload(s, bytes.length))).toBe(sha256(bytes));
    // Completed: a further upload is a conflict, refused before its body is read.
    const again = await put(s, bytes);
    expect(again.status).toBe(409);
  });

  it(`refuses an upload beyond ${MAX_CONCURRENT_UPLOADS} at once with 503 and Retry-After, at once; it succeeds once one finished`, async () => {
    const size = 2 * CHUNK_BYTES;
    const bodies = Array.from({ length: MAX_CONCURRENT_UPLOADS }, () => randomBytes(size));
    // Held by chats of UPLOADS_PER_CHAT uploads each, from addresses of UPLOADS_PER_ADDRESS each.
    const chats = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_UPLOADS / UPLOADS_PER_CHAT }, newChat),
    );
    const held = await Promise.all(
      bodies.map((_, i) => start(size, chats[Math.floor(i / UPLOADS_PER_CHAT)])),
    );
    const open = held.map((s, i) => {
      const from = `127.0.0.${2 + Math.floor(i / UPLOADS_PER_ADDRESS)}`;
      const upload = openUpload(s.UploadMetadata.Url, HEADERS, size, from);
      upload.req.write(bodies[i]!.subarray(0, CHUNK_BYTES + 1));
      return upload;
    });
    // Every held upload is being read: its first chunk is stored.
    await waitFor(
      async () => (await Promise.all(held.map((s) => chunkCount(s.AttachmentId)))).every(Boolean),
      "every held upload streaming",
    );

    const extra = await start(size, await newChat());
    const extraBytes = randomBytes(size);
    const refused = await put(extra, extraBytes);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("x-amzn-errortype")).toBe("ServiceUnavailableException");
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /Too many attachment uploads are in progress/,
    );
    expect(await chunkCount(extra.AttachmentId)).toBe(0);

    open.forEach((upload, i) => upload.req.end(bodies[i]!.subarray(CHUNK_BYTES + 1)));
    for (const upload of open) expect((await upload.reply).status).toBe(200);
    expect((await put(extra, extraBytes)).status).toBe(200);
  });
});
