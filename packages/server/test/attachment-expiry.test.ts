import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireStaleUploads } from "../src/contact-centre/attachment-expiry.js";
import {
  ATTACHMENTS_PER_CONTACT_QUOTA,
  UPLOAD_URL_TTL_MS,
} from "../src/contact-centre/attachments-repo.js";
import { call, connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { StartAttachmentUpload, CompleteAttachmentUpload } = ParticipantPath;
const BYTES = new Uint8Array([1, 2, 3, 4, 5]);

interface Started {
  __type?: string;
  message?: string;
  AttachmentId: string;
  UploadMetadata: { Url: string; UrlExpiry: string };
}

describe.each(ENGINES)("pending attachment uploads expire (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let n = 0;

  beforeAll(async () => {
    server = await startServer(engine, { clock, env: { RATE_LIMIT_BURST: "100000" } });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const newChat = async (): Promise<string> => {
    const chat = await server.startChat();
    return (await connectParticipant(server.url, chat.participantToken)).connectionToken;
  };
  const start = (token: string, clientToken = `start-${n++}`) =>
    call<Started>(server.url, StartAttachmentUpload, token, {
      ContentType: "text/plain",
      AttachmentSizeInBytes: BYTES.length,
      AttachmentName: "note.txt",
      ClientToken: clientToken,
    });
  const put = (s: Started) =>
    fetch(s.UploadMetadata.Url, {
      method: "PUT",
      headers: { "Content-Type": "text/plain" },
      body: BYTES,
    });
  const complete = (token: string, attachmentId: string) =>
    call(server.url, CompleteAttachmentUpload, token, {
      AttachmentIds: [attachmentId],
      ClientToken: `complete-${n++}`,
    });
  const rows = (sql: string, params: unknown[]) => server.built.deps.db.query(sql, params);

  it(`${ATTACHMENTS_PER_CONTACT_QUOTA} pending uploads refuse the next start with 402; past their URL's lifetime they no longer count, cannot be uploaded or completed, and the sweep deletes their chunks`, async () => {
    const token = await newChat();
    const started: Started[] = [];
    for (let i = 0; i < ATTACHMENTS_PER_CONTACT_QUOTA; i++) {
      const s = await start(token);
      expect(s.status).toBe(200);
      started.push(s.body);
    }
    // One of them uploaded, never completed: it holds a chunk.
    expect((await put(started[0]!)).status).toBe(200);
    const refused = await start(token);
    expect(refused.status).toBe(402);
    expect(refused.body.__type).toBe("ServiceQuotaExceededException");
    expect(refused.body.message).toMatch(/number of attachments per contact exceeds the quota/);

    clock.advance(UPLOAD_URL_TTL_MS - 1);
    expect((await start(token)).status).toBe(402);
    clock.advance(1);
    const fresh = await start(token);
    expect(fresh.status).toBe(200);
    // Expired: the upload URL is refused, the uploaded one cannot be completed.
    expect((await put(started[1]!)).status).toBe(403);
    const late = await complete(token, started[0]!.AttachmentId);
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/has expired/);

    // The sweep waits out the request timeout (no upload can still be writing), then reclaims.
    const ids = started.map((s) => s.AttachmentId);
    const chunksOfFirst = () =>
      rows("SELECT count(*)::int AS n FROM attachment_chunks WHERE attachment_id = $1", [ids[0]]);
    expect(await chunksOfFirst()).toEqual([{ n: 1 }]);
    expect(
      await expireStaleUploads(server.built.deps.db, clock, server.config.requestTimeoutMs),
    ).toBe(0);
    clock.advance(server.config.requestTimeoutMs);
    expect(
      await expireStaleUploads(server.built.deps.db, clock, server.config.requestTimeoutMs),
    ).toBeGreaterThanOrEqual(ATTACHMENTS_PER_CONTACT_QUOTA);
    const states = await rows(
      "SELECT DISTINCT status FROM attachments WHERE attachment_id = ANY($1::text[])",
      [ids],
    );
    expect(states).toEqual([{ status: "expired" }]);
    expect(await chunksOfFirst()).toEqual([{ n: 0 }]);
  });

  it("an upload finished just before its URL expired may still be completed for another URL lifetime", async () => {
    const token = await newChat();
    const s = await start(token);
    clock.advance(UPLOAD_URL_TTL_MS - 1);
    expect((await put(s.body)).status).toBe(200);
    clock.advance(UPLOAD_URL_TTL_MS - 1);
    expect((await complete(token, s.body.AttachmentId)).status).toBe(200);
  });

  it("a replayed StartAttachmentUpload returns the first URL expiry, not a fresh one", async () => {
    const token = await newChat();
    const first = await start(token, "replayed");
    clock.advance(60_000);
    const again = await start(token, "replayed");
    expect(again.body.AttachmentId).toBe(first.body.AttachmentId);
    expect(again.body.UploadMetadata.UrlExpiry).toBe(first.body.UploadMetadata.UrlExpiry);
  });
});
