import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { recording } from "../../test/support/statements.js";
import {
  createPosition,
  createPositions,
  findPosition,
  type NewPosition,
} from "./positions-repo.js";

const AT = "2026-11-28T12:00:00.000Z";
const say = (content: string) =>
  ({ kind: "message", voice: "assistant", contentType: "text/plain", content }) as const;

const opened = (contactId: string): NewPosition => ({
  contactId,
  flowId: "flow",
  position: { waitingIn: "menu", pendingEchoes: ["Hi"], outcome: null },
  effects: [say("Hello"), say("Pick one"), { kind: "setAttributes", attributes: { a: "b" } }],
  at: AT,
  opened: { performed: 2, assistantParticipantId: `${contactId}-assistant` },
});

describe("createPositions", () => {
  let db: Db;
  const statements: string[] = [];

  beforeAll(async () => {
    db = recording(await openDb({ dataDir: "memory" }), statements);
  });
  afterAll(() => db?.close());

  it("writes many contacts' first positions in one statement, each its own", async () => {
    statements.length = 0;
    const created = await createPositions(db, [opened("a"), opened("b")]);
    expect(statements).toHaveLength(1);
    expect(created.map((p) => p.contactId).sort()).toEqual(["a", "b"]);
    const b = await findPosition(db, "b");
    expect(b).toEqual({
      contactId: "b",
      flowId: "flow",
      waitingIn: "menu",
      pendingEchoes: ["Hi"],
      outcome: null,
      botParticipantId: null,
      assistantParticipantId: "b-assistant",
      // The opening performed the first two: only the third is pending, keyed by its index.
      pendingEffects: [{ key: "0.2", effect: { kind: "setAttributes", attributes: { a: "b" } } }],
      version: 0,
    });
  });

  it("leaves a contact's existing position as it was and returns only the new ones", async () => {
    const again = { ...opened("a"), flowId: "other", opened: undefined };
    const created = await createPositions(db, [again, opened("c")]);
    expect(created.map((p) => p.contactId)).toEqual(["c"]);
    expect((await findPosition(db, "a"))?.flowId).toBe("flow");
    expect(await createPosition(db, again)).toBeNull();
  });

  it("without an opening keeps every effect pending; nothing to write is no statement", async () => {
    const created = await createPosition(db, { ...opened("d"), opened: undefined });
    expect(created?.pendingEffects.map((e) => e.key)).toEqual(["0.0", "0.1", "0.2"]);
    expect(created?.assistantParticipantId).toBeNull();
    statements.length = 0;
    expect(await createPositions(db, [])).toEqual([]);
    expect(statements).toEqual([]);
  });
});
