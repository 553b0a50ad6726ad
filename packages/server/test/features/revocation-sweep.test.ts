/**
 * Issue 57: what no process heard (the advisors CLI writes only the store; a sign-in that ran
 * out) is revoked all the same: every REVOCATION_SWEEP_MS each process revokes the advisors who
 * hold chats, or a stream of its own, and are no longer signed in.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { addAdvisor, setAdvisorDisabled } from "../../src/agents/advisor-admin.js";
import {
  advisorsToRevoke,
  REVOCATION_SWEEP_MS,
  startRevocationSweeper,
} from "../../src/agents/revocation-sweep.js";
import { AgentService, SESSION_TTL_MS } from "../../src/agents/service.js";
import { isoAt } from "../../src/clock.js";
import { DbContactCentre } from "../../src/contact-centre/contact-centre.js";
import { createMemoryFanOut } from "../../src/fanout/memory.js";
import type { Db } from "../../src/store/db.js";
import { openDb } from "../../src/store/open-db.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";

describe("the revocation sweep", () => {
  let database: TestDatabase;
  let db: Db;
  const clock = new ManualClock();
  let service: AgentService;
  let centre: DbContactCentre;
  let n = 0;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    db = await openDb({ databaseUrl: database.databaseUrl, dataDir: "memory" });
    const fanout = createMemoryFanOut();
    centre = new DbContactCentre({ db, fanout, clock, onError: () => {} });
    service = new AgentService({ db, centre, fanout, clock, onError: () => {} });
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await database.drop();
  });
  afterEach(() => vi.useRealTimers());

  /** A new advisor, signed in and Available, who accepted a chat. */
  async function holdingAdvisor() {
    const username = `sweep${++n}`;
    const { password } = await addAdvisor(db, { username, name: "Robin" });
    const { Token, Advisor } = await service.signIn(username, password);
    const advisor = await service.authenticate(Token);
    await service.setAvailability(advisor, "Available");
    const chat = await centre.startChat({
      instanceId: "instance",
      contactFlowId: "flow",
      displayName: "Customer",
      supportedContentTypes: [],
    });
    await service.enqueue(chat.contactId, "advisors");
    await service.accept(advisor, chat.contactId);
    return { username, advisorId: Advisor.AdvisorId, contactId: chat.contactId };
  }

  const now = () => isoAt(clock.now());

  it("lists the advisors who hold chats or a stream here and are disabled, signed out or past their sign-in; no one else", async () => {
    const signedIn = await holdingAdvisor();
    const disabled = await holdingAdvisor();
    const expiring = await holdingAdvisor();
    await setAdvisorDisabled(db, disabled.username, true);
    expect(await advisorsToRevoke(db, [], now())).toEqual([disabled.advisorId]);
    // Connected here with no sign-in: listed; signed in: not.
    expect(await advisorsToRevoke(db, ["nobody", signedIn.advisorId], now())).toEqual(
      [disabled.advisorId, "nobody"].sort(),
    );
    clock.advance(SESSION_TTL_MS);
    expect(await advisorsToRevoke(db, [], now())).toEqual(
      [signedIn.advisorId, disabled.advisorId, expiring.advisorId].sort(),
    );
    // Revoked, they hold nothing: listed no more.
    for (const id of await advisorsToRevoke(db, [], now())) await service.revoke(id);
    expect(await advisorsToRevoke(db, [], now())).toEqual([]);
  });

  it(`revokes them every ${REVOCATION_SWEEP_MS} ms, not sooner`, async () => {
    const disabled = await holdingAdvisor();
    await setAdvisorDisabled(db, disabled.username, true);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const revoked: string[] = [];
    const stop = startRevocationSweeper({
      db,
      clock,
      connected: () => [],
      revoke: async (id) => void revoked.push(id),
      onError: (error) => {
        throw error;
      },
    });
    vi.advanceTimersByTime(REVOCATION_SWEEP_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    await expect.poll(() => revoked).toEqual([disabled.advisorId]);
    await stop();
  });
});
