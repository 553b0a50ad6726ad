import { ParticipantPath, type Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACHMENTS_PER_CONTACT_QUOTA } from "../src/contact-centre/attachments-repo.js";
import { chatWithAdvisor, type Side } from "./support/chat.js";
import { call, type Reply } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { StartAttachmentUpload, CompleteAttachmentUpload, GetAttachment, GetTranscript } =
  ParticipantPath;
const QUOTA_MESSAGE = /number of attachments per contact exceeds the quota/;
const BYTES = Buffer.from("quota");

interface Started {
  __type?: string;
  message?: string;
  AttachmentId: string;
  UploadMetadata: { Url: string; HeadersToInclude: Record<string, string> };
}

describe.each(ENGINES)("attachments per contact quota (%s)", (engine) => {
  let server: TestServer;
  let n = 0;
  beforeAll(async () => {
    server = await startServer(engine, { env: { RATE_LIMIT_BURST: "100000" } });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const start = (side: Side, clientToken = `start-${n++}`) =>
    call<Started>(server.url, StartAttachmentUpload, side.connectionToken, {
      ContentType: "text/plain",
      AttachmentSizeInBytes: BYTES.length,
      AttachmentName: "note.txt",
      ClientToken: clientToken,
    });
  const complete = (side: Side, attachmentId: string, clientToken = `complete-${n++}`) =>
    call(server.url, CompleteAttachmentUpload, side.connectionToken, {
      AttachmentIds: [attachmentId],
      ClientToken: clientToken,
    });
  /** Start and upload one attachment. */
  const uploaded = async (side: Side): Promise<string> => {
    const s = await start(side);
    expect(s.status).toBe(200);
    const put = await fetch(s.body.UploadMetadata.Url, {
      method: "PUT",
      headers: s.body.UploadMetadata.HeadersToInclude,
      body: new Uint8Array(BYTES),
    });
    expect(put.status).toBe(200);
    return s.body.AttachmentId;
  };
  const completeMany = async (side: Side, count: number) => {
    for (let i = 0; i < count; i++) {
      expect((await complete(side, await uploaded(side))).status).toBe(200);
    }
  };
  const expectQuotaExceeded = (r: Reply<{ __type?: unknown; message?: unknown }>) => {
    expect(r.status).toBe(402);
    expect(r.headers.get("x-amzn-errortype")).toBe("ServiceQuotaExceededException");
    expect(r.body.__type).toBe("ServiceQuotaExceededException");
    expect(r.body.message).toMatch(QUOTA_MESSAGE);
  };

  it(
    `StartAttachmentUpload answers 402 ServiceQuotaExceededException once the contact holds ${ATTACHMENTS_PER_CONTACT_QUOTA} attachments, whichever participants sent them`,
    async () => {
      const chat = await chatWithAdvisor(server);
      await completeMany(chat.advisor, 1);
      await completeMany(chat.customer, ATTACHMENTS_PER_CONTACT_QUOTA - 2);
      // One below the quota: still accepted.
      await completeMany(chat.customer, 1);
      expectQuotaExceeded(await start(chat.customer));
      expectQuotaExceeded(await start(chat.advisor));
      const other = await chatWithAdvisor(server);
      expect((await start(other.customer)).status).toBe(200);
      chat.closeSockets();
      other.closeSockets();
    },
    START_TIMEOUT_MS,
  );

  it(
    "StartAttachmentUpload counts uploads started and not completed: pending ones cannot pile up beside the completed ones",
    async () => {
      const chat = await chatWithAdvisor(server);
      await completeMany(chat.customer, ATTACHMENTS_PER_CONTACT_QUOTA - 2);
      await uploaded(chat.customer);
      expect((await start(chat.advisor)).status).toBe(200);
      expectQuotaExceeded(await start(chat.customer));
      chat.closeSockets();
    },
    START_TIMEOUT_MS,
  );

  it(
    "CompleteAttachmentUpload answers 402 ServiceQuotaExceededException when completions the start did not count reached the quota, and the attachment stays undelivered",
    async () => {
      const chat = await chatWithAdvisor(server);
      await completeMany(chat.customer, ATTACHMENTS_PER_CONTACT_QUOTA - 2);
      const first = await uploaded(chat.customer);
      const late = await start(chat.advisor, "late-start");
      await fetch(late.body.UploadMetadata.Url, {
        method: "PUT",
        headers: late.body.UploadMetadata.HeadersToInclude,
        body: new Uint8Array(BYTES),
      });
      // A completed attachment the starts could not count (as one stored before pending
      // uploads counted against the quota): the contact holds 49 completed, 2 uploaded.
      await server.built.deps.db.query(
        `INSERT INTO attachments (attachment_id, contact_id, participant_id, content_type, name,
           size_bytes, status, created_at, completed_at)
         VALUES ($1, $2, $3, 'text/plain', 'old.txt', 1, 'completed', now(), now())`,
        [`old-${chat.contactId}`, chat.contactId, chat.customer.participant.participantId],
      );
      expect((await complete(chat.customer, first, "first")).status).toBe(200);

      expectQuotaExceeded(await complete(chat.advisor, late.body.AttachmentId));
      // A replay of its Start still names the same attachment; a replayed Complete still succeeds.
      const replay = await start(chat.advisor, "late-start");
      expect(replay.status).toBe(200);
      expect(replay.body.AttachmentId).toBe(late.body.AttachmentId);
      expect((await complete(chat.customer, first, "first")).status).toBe(200);

      const refused = await call(server.url, GetAttachment, chat.advisor.connectionToken, {
        AttachmentId: late.body.AttachmentId,
      });
      expect(refused.status).toBe(400);
      const transcript = await call<{ Transcript: Item[] }>(
        server.url,
        GetTranscript,
        chat.customer.connectionToken,
        { MaxResults: 100 },
      );
      const ids = transcript.body.Transcript.filter((i) => i.Type === "ATTACHMENT").map(
        (i) => i.Attachments?.[0]?.AttachmentId,
      );
      expect(ids).toHaveLength(ATTACHMENTS_PER_CONTACT_QUOTA - 1);
      expect(ids).toContain(first);
      expect(ids).not.toContain(late.body.AttachmentId);
      chat.closeSockets();
    },
    START_TIMEOUT_MS,
  );
});
