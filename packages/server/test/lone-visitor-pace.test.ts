import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbContactCentre, EMBEDDED_SETUP_REST_MS } from "../src/contact-centre/contact-centre.js";
import { createMemoryFanOut } from "../src/fanout/memory.js";
import type { Db } from "../src/store/db.js";
import { openDb } from "../src/store/open-db.js";
import { ManualClock } from "./support/manual-clock.js";

// On the embedded store a batch under load rests after a small commit (setup-pace.test.ts);
// a visitor alone never waits for one: their start-chat, connection and first message are each
// in a batch of its own kind, which no commit of theirs has just ended.
describe("a lone visitor on the embedded store", () => {
  let db: Db;
  let centre: DbContactCentre;
  /** The rests' clock, which stands still unless the test moves it, and the rests asked. */
  let now = 0;
  const rests: number[] = [];

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory" });
    centre = new DbContactCentre({
      db,
      fanout: createMemoryFanOut(),
      clock: new ManualClock(),
      onError: () => {},
      restTimer: {
        now: () => now,
        sleep: async (ms) => {
          rests.push(ms);
        },
      },
    });
  }, 60_000);
  afterAll(() => db?.close());

  /**
   * The server idle for `ms`: once the batches have ended their turn (a batch's callers hear
   * of its commit before it notes the time it ended), the clock moves.
   */
  async function idleFor(ms: number): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    now += ms;
  }

  const start = (name: string) =>
    centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: name,
      supportedContentTypes: [],
    });

  /** A visitor's chat: started, connected, and their first message sent. */
  async function visit(name: string): Promise<void> {
    const chat = await start(name);
    await centre.createConnection(chat.contactId, chat.participantId, {
      websocket: true,
      credentials: true,
      connect: true,
    });
    await centre.postMessage(chat.contactId, chat.participantId, {
      contentType: "text/plain",
      content: `Hello from ${name}`,
    });
  }

  it("sets up and sends without a rest, however soon after its own commits", async () => {
    await visit("Ann"); // the clock stands still: every step follows the one before at once
    expect(rests).toEqual([]);
    await idleFor(60_000);
    await visit("Ben");
    expect(rests).toEqual([]);
  });

  it("a second visitor at the same moment rests behind the first's commits (the timer is wired)", async () => {
    await idleFor(60_000);
    await visit("Cat");
    rests.length = 0;
    await start("Dan");
    expect(rests).toEqual([EMBEDDED_SETUP_REST_MS]);
  });
});
