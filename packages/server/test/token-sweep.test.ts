import { Limits } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_SWEEP_MS } from "../src/contact-centre/contact-centre.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

// Expired websocket and connection tokens are deleted on a new connection, at most every
// TOKEN_SWEEP_MS per process (not on every one: a set-up then costs two statements fewer).
describe("expired tokens are swept", () => {
  const clock = new ManualClock();
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer("pglite", { clock });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const connect = async () => {
    const chat = await server.startChat();
    await server.built.deps.centre.createConnection(chat.contactId, chat.participantId, {
      websocket: true,
      credentials: true,
      connect: true,
    });
  };
  /** Websocket tokens expired by the clock's now and not yet deleted. */
  const expired = async () =>
    (
      await server.built.deps.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM websocket_tokens WHERE expires_at <= $1",
        [new Date(clock.now()).toISOString()],
      )
    )[0]!.n;
  const W = Limits.WEBSOCKET_URL_TTL_MS;

  it("on the first connection TOKEN_SWEEP_MS after the last sweep, not before", async () => {
    await connect(); // t0: sweeps (the first since the start); its token expires at t0 + W
    clock.advance(1);
    await connect(); // t0 + 1: no sweep; its token expires at t0 + 1 + W
    clock.advance(W - 1);
    await connect(); // t0 + W: sweeps the first token; the second is not expired yet
    expect(await expired()).toBe(0);
    clock.advance(1);
    await connect(); // the second has expired, but the last sweep was 1 ms ago
    expect(await expired()).toBe(1);
    clock.advance(TOKEN_SWEEP_MS - 1);
    await connect(); // TOKEN_SWEEP_MS after the last sweep: swept
    expect(await expired()).toBe(0);
  });
});
