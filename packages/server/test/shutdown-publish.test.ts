/**
 * Issue 23: a message committed while its process shuts down reaches the other side. Closing
 * cuts the request's connection, but the fan-out stays open until every mutation in flight has
 * committed and published: a side whose websocket is on another process (or stayed open) gets
 * it live, as it would never repair a gap it did not see.
 */
import { ParticipantPath } from "@chat-widget/protocol";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { CENTRE_CHANNEL, type CentreMessage } from "../src/contact-centre/channel.js";
import { call, connectParticipant } from "./support/client.js";
import { createTestDatabase, type TestDatabase } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
let database: TestDatabase | undefined;
let locker: pg.Client | undefined;
let watcher: pg.Client | undefined;
afterEach(async () => {
  await locker?.end().catch(() => {});
  await watcher?.end().catch(() => {});
  await server?.close().catch(() => {});
  await database?.drop();
  server = database = locker = watcher = undefined;
}, START_TIMEOUT_MS);

it("a message whose commit is still waiting when the process closes is published before the fan-out closes", async () => {
  database = await createTestDatabase("postgres");
  const s = (server = await startServer("postgres", { database }));
  const chat = await s.startChat();
  const { connectionToken } = await connectParticipant(s.url, chat.participantToken);
  const published: string[] = [];
  await s.built.deps.fanout.subscribe(CENTRE_CHANNEL, (message) => {
    const m = message as CentreMessage;
    if (m.kind === "item" && m.item.Content) published.push(m.item.Content);
  });

  // Another client holds the contact's row, so the message waits on it mid-transaction.
  locker = new pg.Client({ connectionString: database.databaseUrl });
  await locker.connect();
  watcher = new pg.Client({ connectionString: database.databaseUrl });
  await watcher.connect();
  await locker.query("BEGIN");
  await locker.query("SELECT 1 FROM contacts WHERE contact_id = $1 FOR UPDATE", [chat.contactId]);
  const sent = call(s.url, ParticipantPath.SendMessage, connectionToken, {
    ContentType: "text/plain",
    Content: "sent as the process stops",
    ClientToken: "in-flight",
  }).catch(() => "cut");
  const waitingOnLock = async () => {
    // Outside a transaction: in one, pg_stat_activity is read once and kept.
    const { rows } = await watcher!.query<{ query: string }>(
      "SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    );
    // The message's write waiting for the contact's row: PostgreSQL's batch updates it in one
    // statement (or, in its locked transaction, locks it FOR UPDATE).
    return rows.some((r) => /UPDATE contacts|FOR UPDATE/.test(r.query));
  };
  await expect.poll(waitingOnLock, { timeout: 15_000 }).toBe(true);

  let closed = false;
  const closing = s.built.close().then(() => (closed = true));
  expect(await sent).toBe("cut");
  expect(closed).toBe(false);
  await locker.query("COMMIT");
  await closing;
  expect(published).toContain("sent as the process stops");
});
