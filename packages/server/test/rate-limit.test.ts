import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

describe.each(ENGINES)("per-participant rate limit (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startServer(engine, {
      clock,
      env: { RATE_LIMIT_BURST: "3", RATE_LIMIT_PER_SECOND: "2" },
    });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const send = (token: string) =>
    call(server.url, ParticipantPath.SendMessage, token, {
      ContentType: "text/plain",
      Content: "x",
    });

  it("answers requests beyond the burst with 429 ThrottlingException and refills at the configured rate, to the millisecond", async () => {
    const chat = await server.startChat();
    const { connectionToken } = await connectParticipant(server.url, chat.participantToken); // 1 of 3
    expect((await send(connectionToken)).status).toBe(200); // 2
    expect((await send(connectionToken)).status).toBe(200); // 3
    const throttled = await send(connectionToken);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("x-amzn-errortype")).toBe("ThrottlingException");
    expect(throttled.body.__type).toBe("ThrottlingException");
    // 2 a second: the next token comes in 500 ms, said in whole seconds.
    expect(throttled.headers.get("retry-after")).toBe("1");
    clock.advance(499);
    expect((await send(connectionToken)).status).toBe(429);
    clock.advance(1);
    expect((await send(connectionToken)).status).toBe(200);
    expect((await send(connectionToken)).status).toBe(429);
  });

  it("limits each participant separately", async () => {
    const a = await server.startChat();
    const b = await server.startChat();
    const ta = (await connectParticipant(server.url, a.participantToken)).connectionToken;
    const tb = (await connectParticipant(server.url, b.participantToken)).connectionToken;
    await send(ta);
    await send(ta);
    expect((await send(ta)).status).toBe(429);
    expect((await send(tb)).status).toBe(200);
  });
});
