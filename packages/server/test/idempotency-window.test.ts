import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoAt } from "../src/clock.js";
import { IDEMPOTENCY_WINDOW_MS, sweepIdempotency } from "../src/contact-centre/idempotency-repo.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

// A ClientToken is remembered for IDEMPOTENCY_WINDOW_MS: lookups ignore older records, and the
// expiry sweeper deletes them now and then (no request pays for that).
describe.each(ENGINES)("ClientToken window (%s)", (engine) => {
  const clock = new ManualClock();
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine, { clock, features: false });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
  }, START_TIMEOUT_MS);

  const records = async (participantId: string) =>
    (
      await server.built.deps.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM idempotency WHERE participant_id = $1",
        [participantId],
      )
    )[0]!.n;

  it("repeats within the window, not after it, and the sweep deletes only what is out of it", async () => {
    const chat = await server.startChat();
    const centre = server.built.deps.centre;
    const send = () =>
      centre.postMessage(chat.contactId, chat.participantId, {
        contentType: "text/plain",
        content: "hello",
        clientToken: "same",
      });
    const first = await send();
    clock.advance(IDEMPOTENCY_WINDOW_MS - 1);
    expect((await send()).Id).toBe(first.Id);
    clock.advance(1);
    // The first record is out of the window, swept or not: the same token is a new message,
    // whose record replaces the old one, and is repeated from then on.
    const second = await send();
    expect(second.Id).not.toBe(first.Id);
    expect(await records(chat.participantId)).toBe(1);
    expect((await send()).Id).toBe(second.Id);

    const db = server.built.deps.db;
    await sweepIdempotency(db, isoAt(clock.now()));
    expect(await records(chat.participantId)).toBe(1);
    clock.advance(IDEMPOTENCY_WINDOW_MS);
    await sweepIdempotency(db, isoAt(clock.now()));
    expect(await records(chat.participantId)).toBe(0);
  });
});
