import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant, type Reply } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { GetAuthenticationUrl, CancelParticipantAuthentication, DisconnectParticipant } =
  ParticipantPath;
const SESSION_ID = "5f0c6a9e-0000-4000-8000-000000000001";
const NO_SESSION = /does not match a customer authentication in progress/;
const VALID = {
  [GetAuthenticationUrl]: { SessionId: SESSION_ID, RedirectUri: "https://shop.example/back" },
  [CancelParticipantAuthentication]: { SessionId: SESSION_ID },
};
const OPERATIONS = [GetAuthenticationUrl, CancelParticipantAuthentication] as const;

describe.each(ENGINES)(
  "GetAuthenticationUrl and CancelParticipantAuthentication (%s)",
  (engine) => {
    let server: TestServer;
    let participantToken: string;
    let connectionToken: string;
    beforeAll(async () => {
      server = await startServer(engine, { env: { RATE_LIMIT_BURST: "100000" } });
      const chat = await server.startChat();
      participantToken = chat.participantToken;
      connectionToken = (await connectParticipant(server.url, participantToken)).connectionToken;
    }, START_TIMEOUT_MS);
    afterAll(() => server?.close(), START_TIMEOUT_MS);

    const expectAwsError = (r: Reply, status: number, type: string, message?: RegExp) => {
      expect(r.status).toBe(status);
      expect(r.headers.get("x-amzn-errortype")).toBe(type);
      expect(r.body.__type).toBe(type);
      expect(r.body.message).toMatch(message ?? /./);
    };

    it("answers a well-formed call with 400 ValidationException: no authentication.initiated session exists in the local contact centre", async () => {
      for (const path of OPERATIONS) {
        const r = await call(server.url, path, connectionToken, VALID[path]);
        expectAwsError(r, 400, "ValidationException", NO_SESSION);
        expect(r.body.message).toContain(SESSION_ID);
      }
    });

    it("refuses a wrong or missing token, or the participant token, with 403 AccessDeniedException whatever the body", async () => {
      for (const path of OPERATIONS) {
        for (const token of ["wrong-token", null, participantToken]) {
          expectAwsError(
            await call(server.url, path, token, VALID[path]),
            403,
            "AccessDeniedException",
          );
          expectAwsError(
            await call(server.url, path, token, { SessionId: 1 }),
            403,
            "AccessDeniedException",
          );
        }
      }
    });

    it("requires SessionId of exactly 36 characters and RedirectUri of 1–1024 characters (400 ValidationException naming the field)", async () => {
      const bad: [string, Record<string, unknown>, RegExp][] = [];
      for (const path of OPERATIONS) {
        const { SessionId: _omitted, ...withoutSession } = VALID[path];
        bad.push(
          [path, withoutSession, /SessionId/],
          [path, { ...VALID[path], SessionId: "s".repeat(35) }, /SessionId/],
          [path, { ...VALID[path], SessionId: "s".repeat(37) }, /SessionId/],
          [path, { ...VALID[path], SessionId: 36 }, /SessionId/],
        );
      }
      const url = VALID[GetAuthenticationUrl];
      bad.push(
        [GetAuthenticationUrl, { SessionId: SESSION_ID }, /RedirectUri/],
        [GetAuthenticationUrl, { ...url, RedirectUri: "" }, /RedirectUri/],
        [GetAuthenticationUrl, { ...url, RedirectUri: "u".repeat(1025) }, /RedirectUri/],
      );
      for (const [path, body, field] of bad) {
        const r = await call(server.url, path, connectionToken, body);
        expectAwsError(r, 400, "ValidationException", field);
        expect(r.body.message, JSON.stringify(body)).not.toMatch(NO_SESSION);
      }
      for (const RedirectUri of ["u", "u".repeat(1024)]) {
        const r = await call(server.url, GetAuthenticationUrl, connectionToken, {
          ...url,
          RedirectUri,
        });
        expectAwsError(r, 400, "ValidationException", NO_SESSION);
      }
    });

    it("answers 403 AccessDeniedException once the participant has left", async () => {
      const chat = await server.startChat();
      const { connectionToken: token } = await connectParticipant(
        server.url,
        chat.participantToken,
      );
      expect((await call(server.url, DisconnectParticipant, token, {})).status).toBe(200);
      for (const path of OPERATIONS) {
        expectAwsError(
          await call(server.url, path, token, VALID[path]),
          403,
          "AccessDeniedException",
        );
      }
    });
  },
);
