import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "./support/client.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const BODIES = [
  "null",
  "true",
  "42",
  '"text"',
  "{}",
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  '{"ContentType": null, "Content": null, "ClientToken": null}',
  '{"ContentType": "text/plain", "Content": "\\u0000\\ud800"}',
  '{"ContentType": "text/plain", "Content": "\\ud800"}',
  '{"ContentType": "text/plain", "Content": "ok", "ClientToken": "a\\u0000"}',
  '{"ContentType": "text/plain", "Content": "ok", "ClientToken": "\\udc00"}',
  '{"ContentType": "image/png", "AttachmentSizeInBytes": 3, "AttachmentName": "a\\u0000.png", "ClientToken": "b"}',
  '{"AttachmentId": "\\u0000"}',
  '{"Type": [], "ConnectParticipant": "yes"}',
  '{"AttachmentIds": [null], "ClientToken": "x"}',
  '{"AttachmentIds": [], "ClientToken": "x"}',
  '{"StartPosition": [], "MaxResults": 1e308}',
  '{"StartPosition": {"AbsoluteTime": "2026-13-45T99:99:99Z"}}',
  '{"NextToken": "eyJjIjpudWxsfQ"}',
  '{"AttachmentSizeInBytes": 1e30, "ContentType": "image/png", "AttachmentName": "a", "ClientToken": "b"}',
  `{"a": ${"[".repeat(5000)}${"]".repeat(5000)}}`,
  "\u00ff\u00fe\u0000",
];

describe("no 5xx, whatever the body", () => {
  let server: TestServer;
  let participantToken: string;
  let connectionToken: string;
  beforeAll(async () => {
    server = await startServer("postgres", { env: { RATE_LIMIT_BURST: "100000" } });
    const chat = await server.startChat();
    participantToken = chat.participantToken;
    connectionToken = (await connectParticipant(server.url, participantToken)).connectionToken;
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("answers every malformed or hostile body on every operation with a 2xx or 4xx", async () => {
    const paths = Object.values(ParticipantPath).filter((p) => p !== ParticipantPath.DescribeView);
    for (const path of paths) {
      const token =
        path === ParticipantPath.CreateParticipantConnection ? participantToken : connectionToken;
      for (const rawBody of BODIES) {
        if (path === ParticipantPath.DisconnectParticipant && rawBody === "{}") continue;
        const r = await call(server.url, path, token, undefined, { rawBody });
        expect(
          r.status,
          `${path} ${rawBody.slice(0, 60)} → ${JSON.stringify(r.body)}`,
        ).toBeLessThan(500);
        if (r.status >= 400) expect(typeof r.body.__type).toBe("string");
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers odd view tokens and attachment URLs with a 4xx", async () => {
    for (const path of [
      `${ParticipantPath.DescribeView}/${"x".repeat(1001)}`,
      `${ParticipantPath.DescribeView}/%E0%A4%A`,
      "/participant/attachments/abc",
      "/participant/attachments/abc?expires=abc&signature=x",
      "/participant/attachments/abc?expires=1&signature=",
      "/participant/ws?token=abc",
      "/participant/ws?token=a%00b",
      "/participant/attachments/a%00b?expires=1&signature=x",
      `${ParticipantPath.DescribeView}/a%00b`,
    ]) {
      const r = await call(server.url, path, connectionToken, undefined, { method: "GET" });
      expect(r.status, `${path} → ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
    }
  });
});
