import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GRANT_CONNECTIONS } from "../src/contact-centre/participants-repo.js";
import { hashToken } from "../src/contact-centre/tokens.js";
import type {
  ConnectionGrant,
  ConnectionRequest,
  NewParticipant,
} from "../src/contact-centre/types.js";
import type { Db } from "../src/store/db.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";
import { countStatements, type CountedStatements } from "./support/statements.js";

const FULL: ConnectionRequest = { websocket: true, credentials: true, connect: true };

// CreateParticipantConnection's group commit (DbContactCentre.createConnection over
// store/group-commit.ts and grantConnections): connections asked for while a write runs are
// granted together in one statement; each is answered for itself.
describe.each(ENGINES)("group commit of connections (%s)", (engine) => {
  let server: TestServer;
  let db: Db;
  /** Statements that granted connections since the last reset, and failures to inject. */
  let grants: CountedStatements;

  beforeAll(async () => {
    // A clock that stands still: the first connection sweeps expired tokens (beforeAll) and no
    // later one does (one a second otherwise), which would hold its grant out of the batch.
    const now = Date.now();
    server = await startServer(engine, { clock: { now: () => now } });
    db = server.built.deps.db;
    grants = countStatements(db, "INSERT INTO websocket_tokens");
    // The first connection also sweeps expired tokens: done here, out of the counts.
    const chat = await server.startChat();
    await connect(chat);
    grants.statements = 0;
  }, START_TIMEOUT_MS);
  afterEach(() => {
    grants.statements = 0;
    grants.failNext = 0;
  });
  afterAll(async () => {
    grants?.restore();
    await server?.close();
  }, START_TIMEOUT_MS);

  const connect = (chat: NewParticipant, request = FULL) =>
    server.built.deps.centre.createConnection(chat.contactId, chat.participantId, request);
  const chats = (n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => server.startChat(`Customer ${i}`)));

  /** What the store holds of a participant's connection. */
  async function stored(chat: NewParticipant) {
    const [participant] = await db.query<{ connected_at: unknown; first_connection_at: unknown }>(
      "SELECT connected_at, first_connection_at FROM participants WHERE participant_id = $1",
      [chat.participantId],
    );
    const tokens = async (table: string) =>
      (
        await db.query<{ token_hash: string }>(
          `SELECT token_hash FROM ${table} WHERE participant_id = $1`,
          [chat.participantId],
        )
      ).map((r) => r.token_hash);
    return {
      connected: participant?.connected_at != null,
      firstConnection: participant?.first_connection_at != null,
      websocket: await tokens("websocket_tokens"),
      credentials: await tokens("connection_tokens"),
    };
  }

  async function expectGranted(chat: NewParticipant, grant: ConnectionGrant) {
    const s = await stored(chat);
    expect(s.connected).toBe(true);
    expect(s.firstConnection).toBe(true);
    expect(s.websocket).toContain(hashToken(grant.websocket!.token));
    expect(s.credentials).toContain(hashToken(grant.credentials!.connectionToken));
  }

  it("grants connections asked for together in one statement, each its own tokens and marks", async () => {
    const all = await chats(10);
    const granted = await Promise.all(all.map((chat) => connect(chat)));
    expect(grants.statements).toBe(1);
    for (const [i, chat] of all.entries()) await expectGranted(chat, granted[i]!);
  });

  it("refuses in a batch the participant of an ended chat, one who left and a stranger to a chat, grants the others", async () => {
    const [a, ended, gone, c, other] = await chats(5);
    await server.built.deps.centre.disconnectParticipant(ended!.contactId, ended!.participantId);
    // Left while its chat goes on (as an advisor who left).
    await db.query("UPDATE participants SET left_at = now() WHERE participant_id = $1", [
      gone!.participantId,
    ]);
    const stranger = { ...other!, contactId: a!.contactId };
    grants.statements = 0;
    const results = await Promise.allSettled([
      connect(a!),
      connect(ended!),
      connect(gone!),
      connect(stranger),
      connect(c!),
    ]);
    expect(grants.statements).toBe(1);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "rejected",
      "fulfilled",
    ]);
    for (const refused of [results[1], results[2], results[3]])
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ statusCode: 403 });
    await expectGranted(a!, (results[0] as PromiseFulfilledResult<ConnectionGrant>).value);
    await expectGranted(c!, (results[4] as PromiseFulfilledResult<ConnectionGrant>).value);
    for (const refused of [ended!, gone!, other!])
      expect(await stored(refused)).toMatchObject({ websocket: [], credentials: [] });
  });

  it("grants the same participant twice in one batch; the one that connects marks it connected", async () => {
    const [chat] = await chats(1);
    const [url, token] = await Promise.all([
      connect(chat!, { websocket: true, credentials: false, connect: false }),
      connect(chat!, { websocket: false, credentials: true, connect: true }),
    ]);
    expect(grants.statements).toBe(1);
    const s = await stored(chat!);
    expect(s).toMatchObject({ connected: true, firstConnection: true });
    expect(s.websocket).toEqual([hashToken(url.websocket!.token)]);
    expect(s.credentials).toEqual([hashToken(token.credentials!.connectionToken)]);
  });

  it("a websocket URL alone marks the first connection, not the connection", async () => {
    const [chat] = await chats(1);
    await connect(chat!, { websocket: true, credentials: false, connect: false });
    expect(await stored(chat!)).toMatchObject({ connected: false, firstConnection: true });
  });

  it("grants each connection of a failed batch alone, none lost, none twice", async () => {
    const all = await chats(5);
    grants.failNext = 1;
    const granted = await Promise.all(all.map((chat) => connect(chat)));
    // The failed batch, then each of the five on its own.
    expect(grants.statements).toBe(6);
    for (const [i, chat] of all.entries()) {
      await expectGranted(chat, granted[i]!);
      expect((await stored(chat)).websocket).toHaveLength(1);
    }
  });

  it("finds its contacts by their keys in the plan kept for every run, not by reading every active chat", async () => {
    await chats(20);
    // The plan a prepared statement keeps after its first runs: PostgreSQL's generic plan. (One
    // exec: the embedded store forgets prepared statements after each.) Scans of a whole table
    // are made costly, as they are on a store of many chats: the test's few rows, once the
    // embedded store's vacuum has counted them, made a sequential scan the cheaper plan here
    // (seen under load), while a query that cannot look contacts up by key still scans them.
    const args = `'{p}', '{c}', '{w}', '{2030-01-01}', '{k}', '{2030-01-01}', '{2026-01-01}', '{t}', '{t}'`;
    const plan = await db.transaction(async (tx) => {
      await tx.exec(`
        SET LOCAL plan_cache_mode = force_generic_plan;
        SET LOCAL enable_seqscan = off;
        SET LOCAL enable_bitmapscan = off;
        PREPARE grant_plan AS ${GRANT_CONNECTIONS};
        CREATE TEMP TABLE grant_plan_lines (n serial, line text) ON COMMIT DROP;
        DO $$ DECLARE line text; BEGIN
          FOR line IN EXECUTE 'EXPLAIN EXECUTE grant_plan(${args.replaceAll("'", "''")})' LOOP
            INSERT INTO grant_plan_lines (line) VALUES (line);
          END LOOP;
        END $$;
        DEALLOCATE grant_plan;`);
      const rows = await tx.query<{ line: string }>("SELECT line FROM grant_plan_lines ORDER BY n");
      return rows.map((r) => r.line).join("\n");
    });
    expect(plan).toMatch(/Index Scan using contacts_pkey on contacts/);
    expect(plan).not.toMatch(/(Seq|Bitmap Heap) Scan on contacts/);
  });
});
