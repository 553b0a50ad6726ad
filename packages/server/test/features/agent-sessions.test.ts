import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_TTL_MS, AgentService } from "../../src/agents/service.js";
import { DbContactCentre } from "../../src/contact-centre/contact-centre.js";
import { createMemoryFanOut } from "../../src/fanout/memory.js";
import type { Db } from "../../src/store/db.js";
import { openDb } from "../../src/store/open-db.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";

describe("advisor sessions", () => {
  let database: TestDatabase;
  let db: Db;
  const clock = new ManualClock();
  let service: AgentService;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    db = await openDb({ databaseUrl: database.databaseUrl, dataDir: "memory" });
    const fanout = createMemoryFanOut();
    const centre = new DbContactCentre({ db, fanout, clock, onError: () => {} });
    service = new AgentService({ db, centre, fanout, clock, onError: () => {} });
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it("a sign-in token lasts exactly 12 hours and is stored only hashed", async () => {
    const { Token, ExpiresAt } = await service.signIn("demo", "demo");
    expect(ExpiresAt).toBe(new Date(clock.now() + SESSION_TTL_MS).toISOString());
    const stored = await db.query<{ token_hash: string }>(
      "SELECT token_hash FROM advisor_sessions",
    );
    expect(stored.map((r) => r.token_hash)).not.toContain(Token);
    clock.advance(SESSION_TTL_MS - 1);
    expect((await service.authenticate(Token)).Name).toBe("Sam");
    clock.advance(1);
    await expect(service.authenticate(Token)).rejects.toMatchObject({
      type: "AccessDeniedException",
    });
  });

  it("signing out ends the session", async () => {
    const { Token, Advisor } = await service.signIn("demo", "demo");
    await service.signOut(Advisor.AdvisorId, Token);
    await expect(service.authenticate(Token)).rejects.toMatchObject({
      type: "AccessDeniedException",
    });
    await expect(service.authenticate(undefined)).rejects.toMatchObject({
      type: "AccessDeniedException",
    });
  });
});
