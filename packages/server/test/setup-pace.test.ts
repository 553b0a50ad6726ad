import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { NewParticipant } from "../src/contact-centre/types.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";
import { countStatements, type CountedStatements } from "./support/statements.js";

const ARRIVING = 30;
const turn = () => new Promise((resolve) => setImmediate(resolve));

// On the embedded store a set-up's batches rest after a small commit (EMBEDDED_SETUP_REST_MS),
// so start-chats and connections arriving one turn of the event loop apart, as requests do
// under load, commit a few statements between them instead of one each.
describe("set-up batches on the embedded store", () => {
  let server: TestServer;
  let starts: CountedStatements;
  let grants: CountedStatements;

  beforeAll(async () => {
    server = await startServer("pglite");
    const { db } = server.built.deps;
    starts = countStatements(db, "INSERT INTO contacts");
    grants = countStatements(db, "INSERT INTO websocket_tokens");
  }, START_TIMEOUT_MS);
  afterEach(() => {
    starts.statements = 0;
    grants.statements = 0;
  });
  afterAll(async () => {
    // The last wrapper first: each puts back the query it found.
    grants?.restore();
    starts?.restore();
    await server?.close();
  }, START_TIMEOUT_MS);

  /** Calls `each(i)` for i < ARRIVING, one turn of the event loop apart; all its answers. */
  async function arriving<T>(each: (i: number) => Promise<T>): Promise<T[]> {
    const answers: Promise<T>[] = [];
    for (let i = 0; i < ARRIVING; i++) {
      answers.push(each(i));
      await turn();
    }
    return Promise.all(answers);
  }

  it("commits start-chats arriving a turn apart a few statements between them, each whole", async () => {
    await server.startChat("Before"); // a commit just ended: the next batch rests
    starts.statements = 0;
    const chats = await arriving((i) => server.startChat(`Customer ${i}`));
    expect(new Set(chats.map((c) => c.contactId)).size).toBe(ARRIVING);
    // One statement each without the rest (measured: 30 of 30); with it 1 here, and at most half
    // even where a turn took 15 times as long.
    expect(starts.statements).toBeLessThanOrEqual(ARRIVING / 2);
  });

  it("grants connections arriving a turn apart a few statements between them, each its own", async () => {
    const chats: NewParticipant[] = await Promise.all(
      Array.from({ length: ARRIVING + 1 }, (_, i) => server.startChat(`Visitor ${i}`)),
    );
    const { centre } = server.built.deps;
    const connect = (chat: NewParticipant) =>
      centre.createConnection(chat.contactId, chat.participantId, {
        websocket: true,
        credentials: true,
        connect: true,
      });
    await connect(chats[ARRIVING]!); // a grant just ended: the next batch rests
    grants.statements = 0;
    const granted = await arriving((i) => connect(chats[i]!));
    expect(new Set(granted.map((g) => g.credentials?.connectionToken)).size).toBe(ARRIVING);
    expect(grants.statements).toBeLessThanOrEqual(ARRIVING / 2); // 30 of 30 without the rest
  });
});
