/**
 * Issue 57, finding 1, attacked (a review of the fix in continuation-proof.test.ts): the holes it
 * found in the proof of a continuation (contact-centre/rehydration.ts), each closed; each test
 * failed while its hole was open.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt } from "../../src/gateway/jwt.js";
import { ENGINES } from "../support/databases.js";
import { startServer, type TestServer } from "../support/server.js";
import { continuationSteps, continuing, PRODUCTION_JWT_SECRET } from "./continuation-support.js";

const SECRET = PRODUCTION_JWT_SECRET;
const BOBS_WORDS = "Bob here: my password reset code is 991-204";

describe.each(ENGINES)("continuation proof, attacked (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, {
      features: true,
      env: {
        CONTACT_CENTRE_MODE: "production",
        WIDGET_JWT_SECRET: SECRET,
        START_CHAT_BURST: "1000",
      },
    });
  }, 120_000);
  afterAll(() => server?.close());

  const jwt = (payload: Record<string, unknown>) => signJwt(payload, SECRET);
  const { start, endedChat, customerWords } = continuationSteps(() => server);

  it("ENTIRE_PAST_SESSION proves the contact it continues (the session's latest): the first contact's secret does not continue a later one started with bob's jwt", async () => {
    // An anonymous chat; its secret s1 is (or later becomes) known to someone other than bob.
    const first = await endedChat({}, "anonymous question");
    // Bob, signed in, continues it with s1 (a proof the server accepts): his chat is bob's.
    const bobs = await endedChat(
      { Jwt: jwt({ sub: "bob" }), ...continuing(first.ContactId, first.ContinuationToken) },
      BOBS_WORDS,
    );
    // Bob's chat by name with s1: refused, as it should be (it was started with bob's jwt).
    const named = await start(continuing(bobs.ContactId, first.ContinuationToken));
    expect(named.status).toBe(403);
    // The same through ENTIRE_PAST_SESSION naming the first contact: no jwt, only s1.
    const session = await start(
      continuing(first.ContactId, first.ContinuationToken, "ENTIRE_PAST_SESSION"),
    );
    if (session.status === 200)
      expect(await customerWords(session.body.data.startChatResult.ParticipantToken)).toContain(
        BOBS_WORDS,
      );
    expect(session.status).toBe(403);
  });

  it("a verified jwt whose sub is a number (a numeric user id) binds the chat to it: another user's jwt with the stored secret is refused", async () => {
    // What the widget does on a shared browser: decodeJwtSubject gives null for both users,
    // so bob's start sends alice's remembered ContinuationToken.
    const alice = await endedChat({ Jwt: jwt({ sub: 1001 }) }, "alice: my card ends 4242");
    const bob = await start({
      Jwt: jwt({ sub: 1002 }),
      ...continuing(alice.ContactId, alice.ContinuationToken),
    });
    expect(bob.status).toBe(403);
  });

  it("an empty jwt subject proves nobody: another visitor whose jwt has sub '' is refused without the secret", async () => {
    const guest = await endedChat({ Jwt: jwt({ sub: "" }) }, "guest: my address is 1 Secret St");
    const stranger = await start({ Jwt: jwt({ sub: "" }), ...continuing(guest.ContactId) });
    expect(stranger.status).toBe(403);
  });

  it("a start that fails before its commit leaves the chat unclaimed: its visitor continues it next time", async () => {
    const chat = await endedChat({ Jwt: jwt({ sub: "carol" }) }, "carol's words");
    const db = server.built.deps.db;
    const query = db.query.bind(db);
    // A transient store error on reading the past messages (between the claim and the commit).
    let failures = 1;
    db.query = (async (sql: string, params?: unknown[]) => {
      if (failures > 0 && sql.includes("item->>'Type' IN")) {
        failures--;
        throw new Error("transient store error");
      }
      return query(sql, params);
    }) as typeof db.query;
    try {
      const failed = await start({ Jwt: jwt({ sub: "carol" }), ...continuing(chat.ContactId) });
      expect(failed.status).toBe(500);
    } finally {
      db.query = query;
    }
    const [row] = await db.query<{ continued_by: string | null }>(
      "SELECT continued_by FROM contacts WHERE contact_id = $1",
      [chat.ContactId],
    );
    const ghost = row!.continued_by;
    const exists = ghost
      ? (await db.query("SELECT 1 FROM contacts WHERE contact_id = $1", [ghost])).length
      : 0;
    expect({ ghost: ghost !== null, exists }).toEqual({ ghost: false, exists: 0 });
    const again = await start({ Jwt: jwt({ sub: "carol" }), ...continuing(chat.ContactId) });
    expect(again.status).toBe(200);
  });
});
