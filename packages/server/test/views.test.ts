import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

describe.each(ENGINES)("DescribeView (%s)", (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    const chat = await server.startChat();
    token = (await connectParticipant(server.url, chat.participantToken)).connectionToken;
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const describeView = (viewToken: string) =>
    call<{ View: Record<string, unknown>; __type?: string }>(
      server.url,
      `${ParticipantPath.DescribeView}/${viewToken}`,
      token,
      undefined,
      { method: "GET" },
    );

  it("returns a known view with Template and InputSchema as JSON strings", async () => {
    const r = await describeView("order-details");
    expect(r.status).toBe(200);
    const view = r.body.View as {
      Id: string;
      Arn: string;
      Name: string;
      Version: number;
      Content: { InputSchema: string; Template: string; Actions: string[] };
    };
    expect(view.Id).toBe("order-details");
    expect(view.Version).toBe(1);
    expect(typeof view.Content.Template).toBe("string");
    expect(JSON.parse(view.Content.InputSchema)).toMatchObject({ type: "object" });
    expect(view.Content.Actions).toEqual(["Confirm", "Cancel"]);
  });

  it("answers an unknown view token, also one with an encoded slash, with 404 ResourceNotFoundException", async () => {
    for (const t of ["no-such-view", "a%2Fb", "__proto__"]) {
      const r = await describeView(t);
      expect(r.status).toBe(404);
      expect(r.headers.get("x-amzn-errortype")).toBe("ResourceNotFoundException");
      expect(r.body.__type).toBe("ResourceNotFoundException");
    }
  });
});
