import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { recording } from "../../test/support/statements.js";
import { PositionReads } from "./position-reads.js";
import { createPosition } from "./positions-repo.js";
import type { FlowEffect, FlowPosition } from "./types.js";

const AT = "2026-11-27T12:00:00.000Z";

describe("PositionReads", () => {
  let db: Db;
  const statements: string[] = [];

  beforeAll(async () => {
    db = recording(await openDb({ dataDir: "memory" }), statements);
    for (const contactId of ["a", "b"]) {
      const position = { waitingIn: `menu of ${contactId}`, pendingEchoes: [], outcome: null };
      await createPosition(db, { contactId, flowId: "flow", position, effects: [], at: AT });
    }
  });
  afterAll(() => db?.close());

  it("reads the positions asked within one turn in one statement, each contact its own", async () => {
    const reads = new PositionReads(db);
    statements.length = 0;
    const [a, b, none, again] = await Promise.all([
      reads.find("a"),
      reads.find("b"),
      reads.find("nobody"),
      reads.find("a"),
    ]);
    expect(statements).toHaveLength(1);
    expect(a?.waitingIn).toBe("menu of a");
    expect(b?.waitingIn).toBe("menu of b");
    expect(none).toBeNull();
    // The same contact asked twice: equal, and not the same object.
    expect(again).toEqual(a);
    expect(again).not.toBe(a);
  });

  it("reads again for what is asked after a read went out", async () => {
    const reads = new PositionReads(db);
    statements.length = 0;
    await reads.find("a");
    await reads.find("b");
    expect(statements).toHaveLength(2);
  });

  it("remembers a contact whose position listens no more once read, and only such a one", async () => {
    const over = { waitingIn: null, pendingEchoes: [], outcome: "queued" as const };
    const created = (contactId: string, position: FlowPosition, effects: FlowEffect[] = []) =>
      createPosition(db, { contactId, flowId: "flow", position, effects, at: AT });
    await created("over", over);
    // A bot's line never echoed back does not keep it listening.
    await created("unechoed", { ...over, pendingEchoes: ["Hi"] });
    await created("performing", over, [{ kind: "setAttributes", attributes: { a: "b" } }]);
    const reads = new PositionReads(db);
    const ids = ["over", "unechoed", "performing", "a", "nobody"];
    expect(ids.filter((id) => reads.listensNoMore(id))).toEqual([]);
    await Promise.all(ids.map((id) => reads.find(id)));
    expect(ids.filter((id) => reads.listensNoMore(id))).toEqual(["over", "unechoed"]);
  });

  it("hands a failed read's error to every reader of it", async () => {
    const failing: Db = { ...db, query: () => Promise.reject(new Error("store down")) };
    const reads = new PositionReads(failing);
    const results = await Promise.allSettled([reads.find("a"), reads.find("b")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
