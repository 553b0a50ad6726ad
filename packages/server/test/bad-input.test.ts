import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant, FrameClient } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const POST_OPERATIONS = [
  ParticipantPath.SendMessage,
  ParticipantPath.SendEvent,
  ParticipantPath.GetTranscript,
  ParticipantPath.StartAttachmentUpload,
  ParticipantPath.CompleteAttachmentUpload,
  ParticipantPath.GetAttachment,
  ParticipantPath.DisconnectParticipant,
  ParticipantPath.GetAuthenticationUrl,
  ParticipantPath.CancelParticipantAuthentication,
];

describe.each(ENGINES)("bad input gets a 4xx AWS-style error, never a 5xx (%s)", (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    const chat = await server.startChat();
    token = (await connectParticipant(server.url, chat.participantToken)).connectionToken;
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const expectAwsError = (
    r: { status: number; headers: Headers; body: Record<string, unknown> },
    status: number,
    type: string,
  ) => {
    expect(r.status).toBe(status);
    expect(r.headers.get("x-amzn-errortype")).toBe(type);
    expect(r.body.__type).toBe(type);
    expect(typeof r.body.message).toBe("string");
    expect((r.body.message as string).length).toBeGreaterThan(0);
  };

  it("answers malformed JSON on every operation with 400 ValidationException", async () => {
    for (const path of [ParticipantPath.CreateParticipantConnection, ...POST_OPERATIONS]) {
      const r = await call(server.url, path, token, undefined, {
        rawBody: '{"ContentType": "text/plain",',
      });
      expectAwsError(r, 400, "ValidationException");
    }
  });

  it("answers a body that is not an object, or of another media type, with 400 ValidationException", async () => {
    for (const path of POST_OPERATIONS) {
      const array = await call(server.url, path, token, undefined, { rawBody: "[1,2]" });
      expectAwsError(array, 400, "ValidationException");
      const text = await call(server.url, path, token, undefined, {
        rawBody: "hello",
        headers: { "content-type": "text/plain" },
      });
      expect(text.status).toBeGreaterThanOrEqual(400);
      expect(text.status).toBeLessThan(500);
      expect(text.body.__type).toBe("ValidationException");
    }
  });

  it("answers wrongly typed fields with 400 ValidationException naming the field", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [ParticipantPath.SendMessage, { ContentType: 5, Content: "x" }, /ContentType/],
      [ParticipantPath.SendEvent, { ContentType: ["typing"] }, /ContentType/],
      [ParticipantPath.GetTranscript, { SortOrder: 1 }, /SortOrder/],
      [
        ParticipantPath.StartAttachmentUpload,
        {
          ContentType: "image/png",
          AttachmentSizeInBytes: 1.5,
          AttachmentName: "a",
          ClientToken: "t",
        },
        /AttachmentSizeInBytes/,
      ],
      [
        ParticipantPath.CompleteAttachmentUpload,
        { AttachmentIds: "abc", ClientToken: "t" },
        /AttachmentIds/,
      ],
      [ParticipantPath.GetAttachment, { AttachmentId: 42 }, /AttachmentId/],
      [ParticipantPath.DisconnectParticipant, { ClientToken: false }, /ClientToken/],
      [
        ParticipantPath.GetAuthenticationUrl,
        { SessionId: "5f0c6a9e-0000-4000-8000-000000000001", RedirectUri: ["x"] },
        /RedirectUri/,
      ],
      [ParticipantPath.CancelParticipantAuthentication, { SessionId: null }, /SessionId/],
    ];
    for (const [path, body, field] of cases) {
      const r = await call(server.url, path, token, body);
      expectAwsError(r, 400, "ValidationException");
      expect(r.body.message).toMatch(field);
    }
  });

  it("answers a wrong, missing or oversized token on every operation with a 4xx", async () => {
    for (const path of POST_OPERATIONS) {
      expectAwsError(await call(server.url, path, "wrong-token", {}), 403, "AccessDeniedException");
      expectAwsError(await call(server.url, path, null, {}), 403, "AccessDeniedException");
      expectAwsError(
        await call(server.url, path, "x".repeat(1001), {}),
        400,
        "ValidationException",
      );
    }
    expectAwsError(
      await call(server.url, `${ParticipantPath.DescribeView}/order-details`, "wrong", undefined, {
        method: "GET",
      }),
      403,
      "AccessDeniedException",
    );
  });

  it("answers an upload larger than 20 MB with 400 ValidationException", async () => {
    const s = await call<{ UploadMetadata: { Url: string } }>(
      server.url,
      ParticipantPath.StartAttachmentUpload,
      token,
      {
        ContentType: "application/pdf",
        AttachmentSizeInBytes: 20 * 1024 * 1024,
        AttachmentName: "big.pdf",
        ClientToken: "big",
      },
    );
    const r = await fetch(s.body.UploadMetadata.Url, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf" },
      body: Buffer.alloc(20 * 1024 * 1024 + 4096),
    });
    expect(r.status).toBe(400);
    expect(r.headers.get("x-amzn-errortype")).toBe("ValidationException");
  });

  it("answers unknown routes with 404 UnknownOperationException", async () => {
    const r = await call(server.url, "/participant/nope", token, {});
    expect(r.status).toBe(404);
    expect(r.headers.get("x-amzn-errortype")).toBe("UnknownOperationException");
    expect(r.body.message).toMatch(/\/participant\/nope/);
  });

  it("survives a websocket upgrade without a token with a 400, not a crash", async () => {
    const wsBase = server.url.replace(/^http/, "ws");
    await expect(FrameClient.open(`${wsBase}/participant/ws`)).rejects.toThrow(/400/);
    await expect(FrameClient.open(`${wsBase}/participant/ws?token=`)).rejects.toThrow(/400/);
    const still = await call(server.url, ParticipantPath.GetTranscript, token, {});
    expect(still.status).toBe(200);
  });
});
