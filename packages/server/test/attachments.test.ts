import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatWithAdvisor, type TwoSidedChat } from "./support/chat.js";
import { call } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { StartAttachmentUpload, CompleteAttachmentUpload, GetAttachment, GetTranscript } =
  ParticipantPath;

interface Started {
  __type?: string;
  message?: string;
  AttachmentId: string;
  UploadMetadata: { Url: string; UrlExpiry: string; HeadersToInclude: Record<string, string> };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe.each(ENGINES)("attachments (%s)", (engine) => {
  let server: TestServer;
  let chat: TwoSidedChat;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startServer(engine, { clock });
    chat = await chatWithAdvisor(server);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    chat?.closeSockets();
    await server?.close();
  }, START_TIMEOUT_MS);
  // Each test starts with the participants' rate-limit buckets full again (burst 40, 10/s).
  beforeEach(() => clock.advance(5_000));

  const start = (body: Record<string, unknown>, token = chat.customer.connectionToken) =>
    call<Started>(server.url, StartAttachmentUpload, token, {
      ContentType: "image/png",
      AttachmentSizeInBytes: PNG.length,
      AttachmentName: "receipt.png",
      ClientToken: `start-${Math.random()}`,
      ...body,
    });
  const upload = (s: Started, bytes: Buffer = PNG, headers = s.UploadMetadata.HeadersToInclude) =>
    fetch(s.UploadMetadata.Url, { method: "PUT", headers, body: new Uint8Array(bytes) });

  it("uploads with the signed URL and HeadersToInclude, completes, and delivers an APPROVED ATTACHMENT item to both participants", async () => {
    const s = await start({});
    expect(s.status).toBe(200);
    expect(s.body.UploadMetadata.HeadersToInclude).toEqual({ "Content-Type": "image/png" });
    expect(s.body.UploadMetadata.Url.startsWith(server.url + "/participant/attachments/")).toBe(
      true,
    );
    expect(s.body.UploadMetadata.UrlExpiry).toBe(new Date(clock.now() + 300_000).toISOString());
    const put = await upload(s.body);
    expect(put.status).toBe(200);
    const done = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: "complete-1",
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({});
    for (const side of [chat.customer, chat.advisor]) {
      const item = await side.socket.waitForItem(
        (i) => i.Type === "ATTACHMENT" && i.Attachments?.[0]?.AttachmentId === s.body.AttachmentId,
      );
      expect(item.Attachments).toEqual([
        {
          ContentType: "image/png",
          AttachmentId: s.body.AttachmentId,
          AttachmentName: "receipt.png",
          Status: "APPROVED",
        },
      ]);
      expect(item.ContentType).toBeUndefined();
      expect(item).toMatchObject({
        ParticipantRole: "CUSTOMER",
        ContactId: chat.contactId,
        InitialContactId: chat.contactId,
      });
    }
    const again = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: "complete-1",
    });
    expect(again.status).toBe(200);
    const conflict = await call(
      server.url,
      CompleteAttachmentUpload,
      chat.customer.connectionToken,
      { AttachmentIds: [s.body.AttachmentId], ClientToken: "complete-2" },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.__type).toBe("ConflictException");

    const got = await call<{ Url: string; UrlExpiry: string; AttachmentSizeInBytes: number }>(
      server.url,
      GetAttachment,
      chat.advisor.connectionToken,
      { AttachmentId: s.body.AttachmentId, UrlExpiryInSeconds: 60 },
    );
    expect(got.status).toBe(200);
    expect(got.body.AttachmentSizeInBytes).toBe(PNG.length);
    expect(got.body.UrlExpiry).toBe(new Date(clock.now() + 60_000).toISOString());
    const download = await fetch(got.body.Url, { headers: { origin: "https://shop.example" } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(download.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
  });

  it("a file of exactly 20 MB uploads, completes and downloads byte for byte", async () => {
    const bytes = Buffer.alloc(20 * 1024 * 1024, 0x25);
    const s = await start({
      ContentType: "application/pdf",
      AttachmentName: "manual.pdf",
      AttachmentSizeInBytes: bytes.length,
    });
    expect(s.status).toBe(200);
    expect((await upload(s.body, bytes)).status).toBe(200);
    const done = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: `complete-${s.body.AttachmentId}`,
    });
    expect(done.status).toBe(200);
    const got = await call<{ Url: string }>(
      server.url,
      GetAttachment,
      chat.advisor.connectionToken,
      {
        AttachmentId: s.body.AttachmentId,
      },
    );
    const download = Buffer.from(await (await fetch(got.body.Url)).arrayBuffer());
    expect(download.length).toBe(bytes.length);
    expect(download.equals(bytes)).toBe(true);
  }, 60_000); // 20 MB through PGlite: ~3 s on an idle 2-core machine, much more under load

  it("a repeated StartAttachmentUpload ClientToken returns the same AttachmentId", async () => {
    const a = await start({ ClientToken: "same-start" });
    const b = await start({ ClientToken: "same-start" });
    expect(b.body.AttachmentId).toBe(a.body.AttachmentId);
  });

  it("concurrent StartAttachmentUpload requests with one ClientToken create one attachment", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        start({ ClientToken: "same-start-at-once", AttachmentName: "at-once.png" }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.AttachmentId)).size).toBe(1);
    const rows = await server.built.deps.db.query(
      "SELECT attachment_id FROM attachments WHERE name = 'at-once.png'",
    );
    expect(rows).toHaveLength(1);
  });

  it("concurrent CompleteAttachmentUpload retries with one ClientToken are all answered {} and record one item", async () => {
    const s = await start({ AttachmentName: "complete-at-once.png" });
    expect((await upload(s.body)).status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
          AttachmentIds: [s.body.AttachmentId],
          ClientToken: "complete-at-once",
        }),
      ),
    );
    expect(results.map((r) => [r.status, r.body])).toEqual(Array(8).fill([200, {}]));
    const transcript = await call<{ Transcript: { Attachments?: { AttachmentId: string }[] }[] }>(
      server.url,
      GetTranscript,
      chat.customer.connectionToken,
      { MaxResults: 100, ScanDirection: "BACKWARD", SortOrder: "ASCENDING" },
    );
    const items = transcript.body.Transcript.filter(
      (i) => i.Attachments?.[0]?.AttachmentId === s.body.AttachmentId,
    );
    expect(items).toHaveLength(1);
  });

  it("refuses a name that does not fit its type, or hides characters, with a 400 saying why (issue 57)", async () => {
    const refused = async (AttachmentName: string, ContentType: string, why: RegExp) => {
      const r = await start({ AttachmentName, ContentType });
      expect(r.status).toBe(400);
      expect((r.body as unknown as { message: string }).message).toMatch(why);
    };
    await refused("report.html", "text/plain", /does not fit ContentType text\/plain/);
    await refused("setup.exe", "text/plain", /must end in \.txt/);
    await refused("invoice.pdf\u202Eexe.html", "text/plain", /bidirectional/);
    // What Chrome on Windows declares for a .csv is accepted.
    expect(
      (await start({ AttachmentName: "orders.csv", ContentType: "application/vnd.ms-excel" }))
        .status,
    ).toBe(200);
  });

  it("accepts an attachment MIME type in any case (as the SDK model does) and stores, signs and delivers it lower-cased", async () => {
    const s = await start({ ContentType: "Image/PNG", AttachmentName: "shout.png" });
    expect(s.status).toBe(200);
    expect(s.body.UploadMetadata.HeadersToInclude).toEqual({ "Content-Type": "image/png" });
    expect((await upload(s.body, PNG, { "Content-Type": "IMAGE/png" })).status).toBe(200);
    const done = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: `complete-${s.body.AttachmentId}`,
    });
    expect(done.status).toBe(200);
    const item = await chat.advisor.socket.waitForItem(
      (i) => i.Type === "ATTACHMENT" && i.Attachments?.[0]?.AttachmentId === s.body.AttachmentId,
    );
    expect(item.Attachments?.[0]?.ContentType).toBe("image/png");
    const got = await call<{ Url: string }>(
      server.url,
      GetAttachment,
      chat.advisor.connectionToken,
      {
        AttachmentId: s.body.AttachmentId,
      },
    );
    expect((await fetch(got.body.Url)).headers.get("content-type")).toBe("image/png");
    // One request whatever the case: a repeated ClientToken returns the same attachment.
    const pdf = { ClientToken: "case-start", AttachmentName: "receipt.pdf" };
    const a = await start({ ...pdf, ContentType: "application/PDF" });
    const b = await start({ ...pdf, ContentType: "application/pdf" });
    expect(a.status).toBe(200);
    expect(b.body.AttachmentId).toBe(a.body.AttachmentId);
  });

  it("rejects types outside the accepted list and sizes over 20 MB with 400 ValidationException", async () => {
    const exe = await start({
      ContentType: "application/x-msdownload",
      AttachmentName: "virus.exe",
    });
    expect(exe.status).toBe(400);
    expect(exe.body.message).toMatch(/not an accepted attachment type/);
    const big = await start({ AttachmentSizeInBytes: 20 * 1024 * 1024 + 1 });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/20971520/);
    const exact = await start({
      AttachmentSizeInBytes: 20 * 1024 * 1024,
      ContentType: "application/pdf",
      AttachmentName: "a.pdf",
    });
    expect(exact.status).toBe(200);
    for (const body of [
      { AttachmentSizeInBytes: 0 },
      { AttachmentSizeInBytes: "12" },
      { AttachmentName: "" },
      { ClientToken: undefined },
    ]) {
      const r = await start(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.__type).toBe("ValidationException");
    }
  });

  it("refuses an upload with another content type, another size, a bad signature, a URL signed for another method, attachment or expiry, or after the URL expired", async () => {
    const s = await start({});
    const wrongType = await upload(s.body, PNG, { "Content-Type": "image/jpeg" });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).__type).toBe("ValidationException");
    const wrongSize = await upload(s.body, Buffer.concat([PNG, PNG]));
    expect(wrongSize.status).toBe(400);
    const forged = await fetch(
      s.body.UploadMetadata.Url.replace(/signature=[^&]+/, "signature=forged"),
      { method: "PUT", headers: s.body.UploadMetadata.HeadersToInclude, body: PNG },
    );
    expect(forged.status).toBe(403);
    expect(forged.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    // A signature binds one method and one attachment: an upload URL neither downloads nor
    // uploads another attachment, and an extended expiry breaks it.
    expect((await fetch(s.body.UploadMetadata.Url)).status).toBe(403);
    const other = await start({});
    const swapped = s.body.UploadMetadata.Url.replace(
      encodeURIComponent(s.body.AttachmentId),
      encodeURIComponent(other.body.AttachmentId),
    );
    expect(swapped).not.toBe(s.body.UploadMetadata.Url);
    const swappedPut = await fetch(swapped, {
      method: "PUT",
      headers: s.body.UploadMetadata.HeadersToInclude,
      body: PNG,
    });
    expect(swappedPut.status).toBe(403);
    const extended = s.body.UploadMetadata.Url.replace(
      /expires=\d+/,
      `expires=${clock.now() + 10 ** 9}`,
    );
    expect(
      (await upload({ ...s.body, UploadMetadata: { ...s.body.UploadMetadata, Url: extended } }))
        .status,
    ).toBe(403);
    clock.advance(300_000);
    const late = await upload(s.body);
    expect(late.status).toBe(403);
  });

  it("refuses to complete an attachment that was never uploaded, or another participant's", async () => {
    const s = await start({});
    const early = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: "early",
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/not been uploaded/);
    await upload(s.body);
    const other = await call(server.url, CompleteAttachmentUpload, chat.advisor.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: "other",
    });
    expect(other.status).toBe(400);
    const two = await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId, "x"],
      ClientToken: "two",
    });
    expect(two.status).toBe(400);
  });

  it("GetAttachment refuses attachments of another contact, incomplete ones and URL expiries outside 5–300 s", async () => {
    const s = await start({});
    await upload(s.body);
    const incomplete = await call(server.url, GetAttachment, chat.customer.connectionToken, {
      AttachmentId: s.body.AttachmentId,
    });
    expect(incomplete.status).toBe(400);
    await call(server.url, CompleteAttachmentUpload, chat.customer.connectionToken, {
      AttachmentIds: [s.body.AttachmentId],
      ClientToken: "c",
    });
    const stranger = await chatWithAdvisor(server);
    const foreign = await call(server.url, GetAttachment, stranger.customer.connectionToken, {
      AttachmentId: s.body.AttachmentId,
    });
    expect(foreign.status).toBe(400);
    stranger.closeSockets();
    for (const UrlExpiryInSeconds of [4, 301]) {
      const r = await call(server.url, GetAttachment, chat.customer.connectionToken, {
        AttachmentId: s.body.AttachmentId,
        UrlExpiryInSeconds,
      });
      expect(r.status).toBe(400);
    }
    const ok = await call<{ Url: string }>(
      server.url,
      GetAttachment,
      chat.customer.connectionToken,
      { AttachmentId: s.body.AttachmentId },
    );
    expect(ok.status).toBe(200);
    clock.advance(300_000);
    expect((await fetch(ok.body.Url)).status).toBe(403);
  });

  it("answers CORS preflights of the upload and download URLs, allowing the HeadersToInclude", async () => {
    const s = await start({});
    const preflight = await fetch(s.body.UploadMetadata.Url, {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
  });
});
