/**
 * Issue 62, slice 1, on both stores: roles (advisor, supervisor, admin; several at once), the
 * first admin from the admin token or the CLI, the admin API open to an admin's session and
 * refused (403) to everyone else, and the audit log of every admin action: who, what, to whom,
 * when and from where, readable by admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditRecord } from "../../src/audit/audit-repo.js";
import { runAdvisorsCommand } from "../../src/cli/advisors-commands.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { http, signIn, startFeatureServer, type Advisor } from "./helpers.js";

const ADMIN_TOKEN = "admin-roles-admin-token-0123456789abcdef";

interface AuditPage {
  Entries: AuditRecord[];
  NextBefore?: string;
}

describe.each(ENGINES)("roles and the audit log (%s)", (engine) => {
  let server: TestServer;
  /** An admin made with the admin token; a plain advisor; a supervisor. */
  let ada: Advisor;
  let sam: Advisor;
  let sue: Advisor;

  const withToken = (token: string | undefined, path: string, body?: unknown) =>
    http<Record<string, unknown>>(server.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body !== undefined ? { body } : {}),
    });
  const asToken = (path: string, body?: unknown) => withToken(ADMIN_TOKEN, path, body);
  async function add(username: string, roles?: string[]): Promise<Advisor> {
    const r = await asToken("/admin-api/advisors", {
      Username: username,
      Name: username.toUpperCase(),
      ...(roles ? { Roles: roles } : {}),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return signIn(server, username, r.body.Password as string);
  }
  const audit = async (token = ada.token, query = "") => {
    const r = await withToken(token, `/admin-api/audit${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as unknown as AuditPage;
  };

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    ada = await add("ada", ["admin", "advisor"]);
    sam = await add("sam");
    sue = await add("sue", ["supervisor"]);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("lists each advisor's roles; several at once, in one order", async () => {
    const r = await withToken(ada.token, "/admin-api/advisors");
    expect(r.status).toBe(200);
    const roles = Object.fromEntries(
      (r.body.Advisors as { Username: string; Roles: string[] }[]).map((a) => [
        a.Username,
        a.Roles,
      ]),
    );
    expect(roles).toMatchObject({
      ada: ["advisor", "admin"],
      sam: ["advisor"],
      sue: ["supervisor"],
    });
  });

  it("every admin route refuses a stranger, an advisor, a supervisor and a signed-out admin (403), and answers an admin", async () => {
    const routes: [string, unknown?][] = [
      ["/admin-api/advisors"],
      ["/admin-api/advisors", { Username: "zed", Name: "Zed" }],
      ["/admin-api/advisors/sam/disable", {}],
      ["/admin-api/advisors/sam/enable", {}],
      ["/admin-api/advisors/sam/reset-password", {}],
      ["/admin-api/advisors/sam/roles", { Roles: ["admin"] }],
      ["/admin-api/audit"],
      ["/admin-api/canned"],
    ];
    for (const [path, body] of routes)
      for (const token of [undefined, "not-a-token", sam.token, sue.token]) {
        const r = await withToken(token, path, body);
        expect(r.status, `${path} ${token}`).toBe(403);
        expect(r.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
      }
    expect((await withToken(sam.token, "/admin-api/advisors")).body).toMatchObject({
      message: "This needs the admin role.",
    });
    // Nothing of that was done.
    const advisors = (await withToken(ada.token, "/admin-api/advisors")).body.Advisors as {
      Username: string;
      Roles: string[];
    }[];
    expect(advisors.map((a) => a.Username)).not.toContain("zed");
    expect(advisors.find((a) => a.Username === "sam")!.Roles).toEqual(["advisor"]);
    expect((await withToken(ada.token, "/admin-api/canned")).status).toBe(200);
  });

  it("an admin's changes are in the audit log, newest first: who, what, to whom, when, from where; never a password", async () => {
    const before = Date.now();
    const bob = await withToken(ada.token, "/admin-api/advisors", {
      Username: "bob",
      Name: "Bob Hall",
      Roles: ["advisor", "supervisor"],
    });
    expect(bob.status).toBe(200);
    expect((await withToken(ada.token, "/admin-api/advisors/bob/disable", {})).status).toBe(200);
    expect((await withToken(ada.token, "/admin-api/advisors/bob/reset-password", {})).status).toBe(
      200,
    );
    const [reset, disable, added] = (await audit()).Entries;
    expect(added).toMatchObject({
      Actor: "ada",
      Action: "POST /admin-api/advisors",
      Target: "bob",
      Detail: { Username: "bob", Name: "Bob Hall", Roles: ["advisor", "supervisor"] },
      Address: "127.0.0.1",
    });
    expect(disable).toMatchObject({
      Actor: "ada",
      Action: "POST /admin-api/advisors/:username/disable",
      Target: "bob",
    });
    expect(reset).toMatchObject({ Action: "POST /admin-api/advisors/:username/reset-password" });
    expect(Date.parse(added!.At)).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(await audit())).not.toContain(bob.body.Password as string);
    // A refused change (409) and a read leave no entry.
    const count = (await audit()).Entries.length;
    expect(
      (await withToken(ada.token, "/admin-api/advisors", { Username: "bob", Name: "B" })).status,
    ).toBe(409);
    expect((await audit()).Entries).toHaveLength(count);
  });

  it("the admin token's changes are logged as the admin token's; the CLI's as the CLI's", async () => {
    expect(
      (await asToken("/admin-api/advisors/sam/roles", { Roles: ["advisor", "supervisor"] })).status,
    ).toBe(200);
    const [byToken] = (await audit()).Entries;
    expect(byToken).toMatchObject({
      Actor: "(admin token)",
      Action: "POST /admin-api/advisors/:username/roles",
      Target: "sam",
      Detail: { username: "sam", Roles: ["advisor", "supervisor"] },
    });
    const said = await runAdvisorsCommand(server.built.deps.db, [
      "add",
      "cleo",
      "--name",
      "Cleo",
      "--role",
      "admin",
      "--role",
      "supervisor",
    ]);
    expect(said).toMatch(/^Added cleo \(Cleo\)\. Password: \S+/);
    const [byCli] = (await audit()).Entries;
    expect(byCli).toMatchObject({
      Actor: "(cli)",
      Action: "advisors add",
      Target: "cleo",
      Address: null,
    });
    const cleo = await signIn(server, "cleo", /Password: (\S+)/.exec(said)![1]!);
    // The CLI's admin is an admin.
    expect((await withToken(cleo.token, "/admin-api/advisors")).status).toBe(200);
    expect(await runAdvisorsCommand(server.built.deps.db, ["roles", "cleo", "supervisor"])).toBe(
      "cleo now has the roles supervisor.",
    );
    // In force at once, on the session they hold.
    expect((await withToken(cleo.token, "/admin-api/advisors")).status).toBe(403);
  });

  it("a role given to a signed-in advisor is in force at once, and taken away at once", async () => {
    const dan = await add("dan");
    expect((await withToken(dan.token, "/admin-api/audit")).status).toBe(403);
    expect(
      (await withToken(ada.token, "/admin-api/advisors/dan/roles", { Roles: ["admin"] })).status,
    ).toBe(200);
    expect((await withToken(dan.token, "/admin-api/audit")).status).toBe(200);
    expect(
      (await withToken(ada.token, "/admin-api/advisors/dan/roles", { Roles: ["advisor"] })).status,
    ).toBe(200);
    expect((await withToken(dan.token, "/admin-api/audit")).status).toBe(403);
  });

  it("bad roles are a clear 400; an advisor nobody has is a 404; nothing is changed or logged", async () => {
    const count = (await audit(ada.token, "?Limit=200")).Entries.length;
    for (const Roles of [[], ["root"], "admin", [1], null, ["admin", "root"]]) {
      const r = await withToken(ada.token, "/admin-api/advisors/sam/roles", { Roles });
      expect(r.status, JSON.stringify(Roles)).toBe(400);
      expect(r.body).toMatchObject({
        message: "Roles must be a list of one or more of advisor, supervisor, admin",
      });
    }
    const bad = await withToken(ada.token, "/admin-api/advisors", {
      Username: "x1",
      Name: "X",
      Roles: ["owner"],
    });
    expect(bad.status).toBe(400);
    expect(
      (await withToken(ada.token, "/admin-api/advisors/nobody/roles", { Roles: ["admin"] })).status,
    ).toBe(404);
    await expect(
      runAdvisorsCommand(server.built.deps.db, ["roles", "sam", "root"]),
    ).rejects.toThrow("Roles must be a list of one or more of advisor, supervisor, admin");
    expect((await audit(ada.token, "?Limit=200")).Entries).toHaveLength(count);
  });

  it("the last enabled admin can be neither disabled nor stripped of the role (409); another admin first, then they can", async () => {
    // Admins now: ada (cleo was made a supervisor, dan an advisor again).
    const admins = async () =>
      (
        (await asToken("/admin-api/advisors")).body.Advisors as {
          Username: string;
          Roles: string[];
          Disabled: boolean;
        }[]
      )
        .filter((a) => a.Roles.includes("admin") && !a.Disabled)
        .map((a) => a.Username);
    expect(await admins()).toEqual(["ada"]);
    const demote = await withToken(ada.token, "/admin-api/advisors/ada/roles", {
      Roles: ["advisor"],
    });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ message: "At least one enabled admin must remain." });
    expect((await asToken("/admin-api/advisors/ada/disable", {})).status).toBe(409);
    expect(await admins()).toEqual(["ada"]);
    expect(
      (await asToken("/admin-api/advisors/sue/roles", { Roles: ["supervisor", "admin"] })).status,
    ).toBe(200);
    expect(
      (await withToken(sue.token, "/admin-api/advisors/ada/roles", { Roles: ["advisor"] })).status,
    ).toBe(200);
    expect(await admins()).toEqual(["sue"]);
    ada = await signIn(
      server,
      "ada",
      (await asToken("/admin-api/advisors/ada/reset-password", {})).body.Password as string,
    );
    expect((await asToken("/admin-api/advisors/ada/roles", { Roles: ["admin"] })).status).toBe(200);
  });

  it("two admins taking the role from each other at once: one of them stays an admin", async () => {
    // Admins now: ada and sue.
    const results = await Promise.all([
      withToken(ada.token, "/admin-api/advisors/sue/roles", { Roles: ["supervisor"] }),
      withToken(sue.token, "/admin-api/advisors/ada/roles", { Roles: ["advisor"] }),
    ]);
    // The other is refused: no admin left after it (409), or, asked after the first change
    // took effect, no longer an admin (403).
    const [first, second] = results.map((r) => r.status).sort();
    expect(first).toBe(200);
    expect([403, 409]).toContain(second);
    const advisors = (await asToken("/admin-api/advisors")).body.Advisors as {
      Username: string;
      Roles: string[];
    }[];
    const admins = advisors.filter((a) => a.Roles.includes("admin")).map((a) => a.Username);
    expect(admins).toHaveLength(1);
    for (const [name, roles] of [
      ["ada", ["admin"]],
      ["sue", ["supervisor", "admin"]],
    ] as const)
      expect((await asToken(`/admin-api/advisors/${name}/roles`, { Roles: roles })).status).toBe(
        200,
      );
  });

  it("a disabled admin's session opens nothing", async () => {
    const r = await asToken("/admin-api/advisors", {
      Username: "eve",
      Name: "Eve",
      Roles: ["admin"],
    });
    const eve = await signIn(server, "eve", r.body.Password as string);
    expect((await withToken(eve.token, "/admin-api/audit")).status).toBe(200);
    expect((await asToken("/admin-api/advisors/eve/disable", {})).status).toBe(200);
    for (const [path, body] of [
      ["/admin-api/audit"],
      ["/admin-api/advisors/eve/enable", {}],
    ] as const)
      expect((await withToken(eve.token, path, body)).status).toBe(403);
  });

  it("the audit log pages newest first with Limit and Before; bad paging is a 400", async () => {
    const all = (await audit(ada.token, "?Limit=200")).Entries;
    expect(all.length).toBeGreaterThan(4);
    const ids = all.map((e) => e.Id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = await audit(ada.token, "?Limit=2");
    expect(first.Entries.map((e) => e.Id)).toEqual(ids.slice(0, 2));
    const second = await audit(ada.token, `?Limit=2&Before=${first.NextBefore}`);
    expect(second.Entries.map((e) => e.Id)).toEqual(ids.slice(2, 4));
    for (const query of ["?Limit=0", "?Limit=201", "?Limit=x", "?Before=-1", "?Before=1e3"]) {
      const r = await withToken(ada.token, `/admin-api/audit${query}`);
      expect(r.status, query).toBe(400);
    }
  });
});
