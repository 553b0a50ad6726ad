/**
 * Issue 57, finding 1: continuing a chat needs proof (contact-centre/rehydration.ts). Attacked
 * as a stranger would, on a production-mode server: another jwt subject, no jwt, a wrong or
 * another chat's continuation secret, a contact that does not exist all get one identical 403
 * and start nothing; the rightful visitor continues, once; too old a chat is not continued.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt } from "../../src/gateway/jwt.js";
import { ENGINES } from "../support/databases.js";
import { startServer, type TestServer } from "../support/server.js";
import { continuationSteps, continuing, PRODUCTION_JWT_SECRET } from "./continuation-support.js";

const SECRET = PRODUCTION_JWT_SECRET;
const SECRET_WORDS = "My home address is 1 Secret Street, card ending 4242";

describe.each(ENGINES)("continuing a chat needs proof (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, {
      features: true,
      env: {
        CONTACT_CENTRE_MODE: "production",
        WIDGET_JWT_SECRET: SECRET,
        CONTINUE_CHAT_MAX_AGE_DAYS: "30",
        // Every attempt comes from one address: the per-address start-chat limit lifted.
        START_CHAT_BURST: "1000",
      },
    });
  }, 120_000);
  afterAll(() => server?.close());

  const jwtOf = (sub: string) => signJwt({ sub, attributes: { customerName: sub } }, SECRET);
  const contacts = async () =>
    (await server.built.deps.db.query("SELECT contact_id FROM contacts")).length;

  const { start, endedChat: endedWith, customerWords } = continuationSteps(() => server);
  /** A chat (started with `extra`) in which the visitor said the secret words, then ended. */
  const endedChat = (extra: Record<string, unknown> = {}) => endedWith(extra, SECRET_WORDS);

  /** /metrics' count of refusals of `kind` (this process's). */
  async function refusals(kind: string): Promise<number> {
    const text = await (await fetch(server.url + "/metrics")).text();
    const line = text
      .split("\n")
      .find((l) => l.startsWith(`chat_widget_refusals_total{kind="${kind}"}`));
    return Number(line?.split(" ")[1]);
  }

  /** Each attempt refused with the same 403, word for word, no chat started, each counted. */
  async function refusedAlike(attempts: Record<string, unknown>[]) {
    const before = await contacts();
    const counted = await refusals("continuation_unproved");
    const replies = [];
    for (const extra of attempts) {
      const r = await start(extra);
      replies.push({ status: r.status, body: r.body });
    }
    expect(replies[0]).toEqual({
      status: 403,
      body: expect.objectContaining({ message: expect.stringContaining("cannot be continued") }),
    });
    for (const reply of replies) expect(reply).toEqual(replies[0]);
    expect(await contacts()).toBe(before);
    expect(await refusals("continuation_unproved")).toBe(counted + attempts.length);
  }

  it("another jwt subject, no jwt, and alice's own secret without her jwt get one identical 403, like a contact that does not exist; alice continues and reads her words", async () => {
    const alice = await endedChat({ Jwt: jwtOf("alice") });
    expect(alice.ContinuationToken).toEqual(expect.any(String));
    await refusedAlike([
      { Jwt: jwtOf("bob"), ...continuing(alice.ContactId) },
      continuing(alice.ContactId),
      { Jwt: jwtOf("bob"), ...continuing(alice.ContactId, alice.ContinuationToken) },
      continuing(alice.ContactId, alice.ContinuationToken),
      { Jwt: jwtOf("bob"), ...continuing("no-such-contact") },
      continuing("no-such-contact", alice.ContinuationToken),
    ]);
    const again = await start({ Jwt: jwtOf("alice"), ...continuing(alice.ContactId) });
    expect(again.status).toBe(200);
    const result = again.body.data.startChatResult;
    expect(result.ContinuedFromContactId).toBe(alice.ContactId);
    expect(await customerWords(result.ParticipantToken)).toContain(SECRET_WORDS);
  });

  it("a chat started without a jwt is continued only with its own continuation secret", async () => {
    const anonymous = await endedChat();
    const other = await endedChat();
    await refusedAlike([
      continuing(anonymous.ContactId),
      continuing(anonymous.ContactId, "guessed-secret"),
      continuing(anonymous.ContactId, other.ContinuationToken),
      { Jwt: jwtOf("bob"), ...continuing(anonymous.ContactId) },
    ]);
    const own = await start(continuing(anonymous.ContactId, anonymous.ContinuationToken));
    expect(own.status).toBe(200);
    const result = own.body.data.startChatResult;
    expect(await customerWords(result.ParticipantToken)).toContain(SECRET_WORDS);
    // The continued chat has a secret of its own, which continues it in turn once it ends.
    expect(result.ContinuationToken).not.toBe(anonymous.ContinuationToken);
    await server.built.deps.centre.endContact(result.ContactId);
    const next = await start(continuing(result.ContactId, result.ContinuationToken));
    expect(next.status).toBe(200);
  });

  it("the secret is stored only as a hash", async () => {
    const chat = await endedChat();
    const [row] = await server.built.deps.db.query<Record<string, unknown>>(
      "SELECT * FROM contacts WHERE contact_id = $1",
      [chat.ContactId],
    );
    expect(JSON.stringify(row)).not.toContain(chat.ContinuationToken);
    expect(row!.continuation_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a chat is copied once: continuing it again, even many at once, copies nothing more", async () => {
    const chat = await endedChat({ Jwt: jwtOf("carol") });
    const items = async () =>
      (await server.built.deps.db.query("SELECT item_id FROM items")).length;
    const attempt = () => start({ Jwt: jwtOf("carol"), ...continuing(chat.ContactId) });
    const replies = await Promise.all(Array.from({ length: 6 }, attempt));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const before = await items();
    const invalid = await refusals("continuation_invalid");
    const again = await attempt();
    expect(await refusals("continuation_invalid")).toBe(invalid + 1);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(
      `PersistentChat.SourceContactId ${chat.ContactId} was continued already: continue the chat that continued it.`,
    );
    expect(await items()).toBe(before);
  });

  it("a chat that ended more than CONTINUE_CHAT_MAX_AGE_DAYS ago is not continued; one just within is", async () => {
    const old = await endedChat({ Jwt: jwtOf("dave") });
    const recent = await endedChat({ Jwt: jwtOf("dave") });
    const endedDaysAgo = (id: string, days: number) =>
      server.built.deps.db.query(
        "UPDATE contacts SET ended_at = now() - make_interval(days => $2) WHERE contact_id = $1",
        [id, days],
      );
    await endedDaysAgo(old.ContactId, 31);
    await endedDaysAgo(recent.ContactId, 29);
    const tooOld = await start({ Jwt: jwtOf("dave"), ...continuing(old.ContactId) });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.message).toBe(
      `PersistentChat.SourceContactId ${old.ContactId} ended too long ago to be continued.`,
    );
    // Proof comes first: to anyone else the old chat is refused as any other.
    expect((await start({ Jwt: jwtOf("eve"), ...continuing(old.ContactId) })).status).toBe(403);
    const within = await start({ Jwt: jwtOf("dave"), ...continuing(recent.ContactId) });
    expect(within.status).toBe(200);
  });
});
