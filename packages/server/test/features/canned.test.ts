/**
 * Issue 60 (3), canned responses: the team's shared ones are managed with the admin token, each
 * advisor's own by that advisor; every advisor lists the shared ones and only their own. Every
 * other caller is refused, a bad one is a clear 400, a taken shortcut a 409, and each owner
 * keeps a bounded number.
 */
import { randomUUID } from "node:crypto";
import {
  CannedApiPath,
  CannedLimits,
  cannedPath,
  type CannedListResponse,
  type CannedResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertCanned } from "../../src/canned/canned-repo.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
} from "./helpers.js";

const ADMIN_TOKEN = "canned-admin-token-0123456789abcdef0123";
const admin = { token: ADMIN_TOKEN };

describe.each(ENGINES)("canned responses (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let kim: Advisor;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    sam = await signIn(server);
    kim = await addAdvisor(server, ADMIN_TOKEN, "kim", "Kim");
  });
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (who: { token: string } | null): Record<string, string> =>
    who ? { authorization: `Bearer ${who.token}` } : {};
  const list = (who: { token: string } | null, path: string = CannedApiPath.List) =>
    http<CannedListResponse & { message?: string }>(server.url + path, { headers: as(who) });
  const create = (
    who: { token: string } | null,
    body: unknown,
    path: string = CannedApiPath.List,
  ) => http<CannedResponse & { message?: string }>(server.url + path, { body, headers: as(who) });
  const change = (
    who: { token: string } | null,
    id: string,
    body: unknown,
    one: string = CannedApiPath.One,
  ) =>
    http<CannedResponse & { message?: string }>(server.url + cannedPath(one, id), {
      method: "PUT",
      body,
      headers: as(who),
    });
  const remove = (who: { token: string } | null, id: string, one: string = CannedApiPath.One) =>
    http<{ message?: string }>(server.url + cannedPath(one, id), {
      method: "DELETE",
      headers: as(who),
    });

  const entry = (shortcut: string, body = `Text of ${shortcut}`) => ({
    Shortcut: shortcut,
    Title: `Title ${shortcut}`,
    Body: body,
  });

  it("lists the shared ones to every advisor and each advisor's own only to them", async () => {
    const shared = await create(
      admin,
      entry("where", "Hi {{visitor.name}}, your order {{attributes.orderNumber}} is on its way."),
      CannedApiPath.AdminList,
    );
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ Shortcut: "where", Shared: true });
    const own = await create(sam, entry("thanks"));
    expect(own.status).toBe(200);
    expect(own.body.Shared).toBe(false);
    // The same shortcut as a shared one is allowed for one's own.
    expect((await create(sam, entry("where"))).status).toBe(200);

    const samList = await list(sam);
    expect(samList.status).toBe(200);
    expect(samList.body.Canned.map((c) => [c.Shortcut, c.Shared])).toEqual([
      ["thanks", false],
      ["where", true],
      ["where", false],
    ]);
    expect((await list(kim)).body.Canned.map((c) => c.Shortcut)).toEqual(["where"]);
    expect((await list(admin, CannedApiPath.AdminList)).body.Canned.map((c) => c.Shortcut)).toEqual(
      ["where"],
    );
  });

  it("lets an advisor change and delete only their own; shared ones need the admin token", async () => {
    const mine = await create(sam, entry("bye"));
    const team = await create(admin, entry("hours"), CannedApiPath.AdminList);
    const changed = await change(sam, mine.body.CannedId, entry("bye", "Goodbye and thanks!"));
    expect(changed.status).toBe(200);
    expect(changed.body.Body).toBe("Goodbye and thanks!");

    for (const r of [
      await change(sam, team.body.CannedId, entry("hours")),
      await remove(sam, team.body.CannedId),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/managed by an admin/);
    }
    for (const r of [
      await change(kim, mine.body.CannedId, entry("bye")),
      await remove(kim, mine.body.CannedId),
      await change(sam, "no-such-id", entry("bye")),
      await remove(sam, "no-such-id"),
      // The admin API manages the shared ones only.
      await change(admin, mine.body.CannedId, entry("bye"), CannedApiPath.AdminOne),
    ]) {
      expect(r.status).toBe(404);
    }
    expect(
      (await change(admin, team.body.CannedId, entry("hours", "9 to 5"), CannedApiPath.AdminOne))
        .status,
    ).toBe(200);
    expect((await remove(admin, team.body.CannedId, CannedApiPath.AdminOne)).status).toBe(200);
    expect((await remove(sam, mine.body.CannedId)).status).toBe(200);
    expect((await list(sam)).body.Canned.map((c) => c.Shortcut)).not.toContain("bye");
  });

  it("refuses participant tokens, strangers and the wrong credential (403)", async () => {
    const customer = await widgetCustomer(server, null);
    opened.push(customer);
    for (const who of [
      null,
      { token: "nope" },
      { token: customer.participantToken },
      { token: customer.connectionToken },
      admin,
    ]) {
      expect((await list(who)).status).toBe(403);
      expect((await create(who, entry("x"))).status).toBe(403);
    }
    for (const who of [null, sam, { token: customer.participantToken }]) {
      expect((await list(who, CannedApiPath.AdminList)).status).toBe(403);
      expect((await create(who, entry("x"), CannedApiPath.AdminList)).status).toBe(403);
    }
  });

  it("says what is wrong (400), refuses a taken shortcut (409) and keeps at most the cap", async () => {
    const cases: [unknown, RegExp][] = [
      [{ Title: "t", Body: "b" }, /Shortcut/],
      [entry("Has Space"), /Shortcut/],
      [entry("UPPER"), /Shortcut/],
      [entry("x".repeat(33)), /Shortcut/],
      [{ ...entry("ok"), Title: "" }, /Title/],
      [{ ...entry("ok"), Title: "   " }, /needs a title/],
      [{ ...entry("ok"), Body: "x".repeat(CannedLimits.BODY_MAX + 1) }, /Body/],
      [{ ...entry("ok"), Title: "t".repeat(CannedLimits.TITLE_MAX + 1) }, /Title/],
    ];
    for (const [body, message] of cases) {
      const r = await create(kim, body);
      expect(r.status, JSON.stringify(body).slice(0, 50)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect((await create(kim, entry("dup"))).status).toBe(200);
    const taken = await create(kim, entry("dup"));
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/\/dup is taken/);
    const other = await create(kim, entry("other"));
    expect((await change(kim, other.body.CannedId, entry("dup"))).status).toBe(409);

    const { AdvisorId } = (
      await http<{ Advisor: { AdvisorId: string } }>(server.url + "/agent-api/me", {
        headers: as(kim),
      })
    ).body.Advisor;
    const have = (await list(kim)).body.Canned.filter((c) => !c.Shared).length;
    for (let i = have; i < CannedLimits.PERSONAL_MAX; i++)
      await insertCanned(
        server.built.deps.db,
        AdvisorId,
        randomUUID(),
        entry(`n${i}`),
        new Date().toISOString(),
      );
    const full = await create(kim, entry("onemore"));
    expect(full.status).toBe(409);
    expect(full.body.message).toMatch(/the most kept/);
  });
});
