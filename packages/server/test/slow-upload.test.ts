/**
 * Issue 10: uploads trickling in must not hold the upload slots until REQUEST_TIMEOUT_MS (5 min):
 * after their first 10 s they must average UPLOAD_MIN_BYTES_PER_SECOND, or they are refused and
 * their slots freed for others.
 */
import { randomBytes } from "node:crypto";
import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONCURRENT_UPLOADS, UPLOADS_PER_ADDRESS } from "../src/participant/upload-slots.js";
import { call, connectParticipant } from "./support/client.js";
import { openUpload, waitFor } from "./support/raw-upload.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const HEADERS = { "Content-Type": "application/pdf" };
const SIZE = 1024 * 1024;

describe("uploads slower than the minimum rate", () => {
  let server: TestServer;
  let n = 0;
  beforeAll(async () => {
    server = await startServer("pglite", {
      env: { RATE_LIMIT_BURST: "100000", UPLOAD_MIN_BYTES_PER_SECOND: "65536" },
    });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  /** A new chat's connection token (a chat holds at most UPLOADS_PER_CHAT uploads at once). */
  const newChat = async () =>
    (await connectParticipant(server.url, (await server.startChat()).participantToken))
      .connectionToken;
  const start = async (chat?: string): Promise<string> => {
    const r = await call<{ UploadMetadata: { Url: string } }>(
      server.url,
      ParticipantPath.StartAttachmentUpload,
      chat ?? (await newChat()),
      {
        ContentType: "application/pdf",
        AttachmentSizeInBytes: SIZE,
        AttachmentName: "slow.pdf",
        ClientToken: `start-${n++}`,
      },
    );
    expect(r.status).toBe(200);
    return r.body.UploadMetadata.Url;
  };
  const put = async (url: string) =>
    (await fetch(url, { method: "PUT", headers: HEADERS, body: randomBytes(SIZE) })).status;

  it("are refused after the grace, and the slots they held serve others", async () => {
    const urls = await Promise.all(Array.from({ length: MAX_CONCURRENT_UPLOADS }, () => start()));
    const slow = urls.map((url, i) => {
      // From addresses of UPLOADS_PER_ADDRESS uploads each.
      const upload = openUpload(
        url,
        HEADERS,
        SIZE,
        `127.0.0.${2 + Math.floor(i / UPLOADS_PER_ADDRESS)}`,
      );
      upload.req.write(Buffer.alloc(1)); // then nothing more
      return upload;
    });
    // Every slot is held by a slow upload: another is turned away.
    await waitFor(async () => (await put(await start())) === 503, "the upload slots all held");

    const replies = await Promise.all(slow.map((upload) => upload.reply));
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.headers.connection).toBe("close");
      expect(JSON.parse(reply.body).message).toMatch(
        /^The upload was too slow: 1 bytes in 10 s; after the first 10 s it must average at least 65536 bytes a second\.$/,
      );
    }
    for (const upload of slow) upload.req.destroy();
    expect(await put(await start())).toBe(200);
  }, 90_000);
});
