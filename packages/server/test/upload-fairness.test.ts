/**
 * Issue 57, finding 3: no one caller holds a process's upload slots. Eight slow PUTs to one
 * upload URL held all 8; now at most UPLOADS_PER_ATTACHMENT at once per upload URL,
 * UPLOADS_PER_CHAT per chat and UPLOADS_PER_ADDRESS per client address, each beyond them a 503
 * with Retry-After, refused before its body is read, and served once one finished.
 */
import { randomBytes } from "node:crypto";
import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  UPLOADS_PER_ADDRESS,
  UPLOADS_PER_ATTACHMENT,
  UPLOADS_PER_CHAT,
} from "../src/participant/upload-slots.js";
import { CHUNK_BYTES } from "../src/contact-centre/attachment-chunks-repo.js";
import { call, connectParticipant } from "./support/client.js";
import { openUpload, waitFor, type OpenUpload } from "./support/raw-upload.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const HEADERS = { "Content-Type": "application/pdf" };
const SIZE = 2 * CHUNK_BYTES;

describe("upload slots are shared fairly", () => {
  let server: TestServer;
  let n = 0;
  const held: OpenUpload[] = [];
  beforeAll(async () => {
    server = await startServer("pglite", { env: { RATE_LIMIT_BURST: "100000" } });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    for (const upload of held) upload.req.destroy();
    await server?.close();
  }, START_TIMEOUT_MS);

  const newChat = async () =>
    (await connectParticipant(server.url, (await server.startChat()).participantToken))
      .connectionToken;
  const start = async (chat: string): Promise<string> => {
    const r = await call<{ UploadMetadata: { Url: string } }>(
      server.url,
      ParticipantPath.StartAttachmentUpload,
      chat,
      {
        ContentType: "application/pdf",
        AttachmentSizeInBytes: SIZE,
        AttachmentName: "held.pdf",
        ClientToken: `start-${n++}`,
      },
    );
    expect(r.status).toBe(200);
    return r.body.UploadMetadata.Url;
  };
  /**
   * An upload that has begun and holds its slot: its first chunk and a byte sent and stored (so
   * the server surely reads it), the rest to come.
   */
  const hold = async (url: string, from: string) => {
    const upload = openUpload(url, HEADERS, SIZE, from);
    upload.reply.catch(() => {}); // destroyed unanswered after the tests
    upload.req.write(Buffer.alloc(CHUNK_BYTES + 1));
    held.push(upload);
    const attachmentId = new URL(url).pathname.split("/").at(-1)!;
    await waitFor(async () => {
      const [row] = await server.built.deps.db.query<{ n: unknown }>(
        "SELECT count(*) AS n FROM attachment_chunks WHERE attachment_id = $1",
        [attachmentId],
      );
      return Number(row?.n) > 0;
    }, "the held upload streaming");
    return upload;
  };
  /** A whole upload sent at once from `from`: its status, Retry-After and message. */
  const put = async (url: string, from: string) => {
    const upload = openUpload(url, HEADERS, SIZE, from);
    upload.req.end(randomBytes(SIZE));
    const reply = await upload.reply;
    const message =
      reply.status === 200 ? "" : (JSON.parse(reply.body) as { message: string }).message;
    return { status: reply.status, retryAfter: reply.headers["retry-after"], message };
  };
  const refusedWith = (message: RegExp) => ({
    status: 503,
    retryAfter: "1",
    message: expect.stringMatching(message),
  });

  /** /metrics' count of uploads turned away. */
  const busy = async () => {
    const text = await (await fetch(server.url + "/metrics")).text();
    return Number(
      text
        .split("\n")
        .find((l) => l.includes('kind="upload_busy"'))
        ?.split(" ")[1],
    );
  };

  it(`${UPLOADS_PER_ATTACHMENT} upload at once per upload URL`, async () => {
    const url = await start(await newChat());
    const first = await hold(url, "127.0.0.21");
    const counted = await busy();
    expect(await put(url, "127.0.0.22")).toEqual(refusedWith(/being uploaded already/));
    expect(await busy()).toBe(counted + 1);
    first.req.end(randomBytes(SIZE - CHUNK_BYTES - 1));
    expect((await first.reply).status).toBe(200);
  });

  it(`${UPLOADS_PER_CHAT} uploads at once per chat`, async () => {
    const chat = await newChat();
    const uploads = [];
    for (let i = 0; i < UPLOADS_PER_CHAT; i++)
      uploads.push(await hold(await start(chat), `127.0.0.${31 + i}`));
    const extra = await start(chat);
    expect(await put(extra, "127.0.0.39")).toEqual(refusedWith(/This chat has 2 uploads/));
    uploads[0]!.req.end(randomBytes(SIZE - CHUNK_BYTES - 1));
    expect((await uploads[0]!.reply).status).toBe(200);
    expect((await put(extra, "127.0.0.39")).status).toBe(200);
  });

  it(`${UPLOADS_PER_ADDRESS} uploads at once per client address`, async () => {
    const uploads = [];
    for (let i = 0; i < UPLOADS_PER_ADDRESS; i++)
      uploads.push(await hold(await start(await newChat()), "127.0.0.41"));
    const extra = await start(await newChat());
    expect(await put(extra, "127.0.0.41")).toEqual(refusedWith(/This address has 4 uploads/));
    // Another address is served meanwhile.
    expect((await put(await start(await newChat()), "127.0.0.42")).status).toBe(200);
    uploads[0]!.req.end(randomBytes(SIZE - CHUNK_BYTES - 1));
    expect((await uploads[0]!.reply).status).toBe(200);
    expect((await put(extra, "127.0.0.41")).status).toBe(200);
  });
});
