/** Issue 10: the admin API (what the advisor CLI does, over HTTP, with its own credential). */
import { AgentApiPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "./features/helpers.js";
import { startServer, type TestServer } from "./support/server.js";

const ADMIN_TOKEN = "an-admin-token-of-at-least-32-characters";

describe("the admin API", () => {
  let server: TestServer;
  let without: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite", { features: true, env: { ADMIN_TOKEN } });
    without = await startServer("pglite", { features: true });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await without?.close();
  });

  const admin = (path: string, body?: unknown, token = ADMIN_TOKEN) =>
    http<Record<string, unknown>>(server.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}` },
      ...(body !== undefined ? { body } : {}),
    });
  const signIn = (Username: string, Password: string) =>
    http(server.url + AgentApiPath.SignIn, { body: { Username, Password } });

  it("refuses anyone without the admin token; without ADMIN_TOKEN no token is one", async () => {
    expect((await http(server.url + "/admin-api/advisors")).status).toBe(403);
    const wrong = await admin("/admin-api/advisors", undefined, "not-the-admin-token");
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    const none = await http(without.url + "/admin-api/advisors", {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(none.status).toBe(403);
  });

  it("adds, lists, disables, enables and resets advisors; bad input is a clear 4xx", async () => {
    const added = await admin("/admin-api/advisors", { Username: "erin", Name: "Erin Lee" });
    expect(added.status).toBe(200);
    const password = added.body.Password as string;
    expect(password).toMatch(/^[\w-]{24}$/);
    expect((await signIn("erin", password)).status).toBe(200);

    const twice = await admin("/admin-api/advisors", { Username: "erin", Name: "Erin" });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ message: "erin already exists" });
    for (const bad of [
      { Username: "bad name", Name: "X" },
      { Username: "frank" },
      { Username: "frank", Name: "F", MaxConcurrentChats: 0 },
      [],
    ]) {
      const r = await admin("/admin-api/advisors", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }

    const list = await admin("/admin-api/advisors");
    expect(list.body.Advisors).toContainEqual({
      Username: "erin",
      Name: "Erin Lee",
      Availability: "Offline",
      MaxConcurrentChats: 10,
      Disabled: false,
      Roles: ["advisor"],
    });
    expect(JSON.stringify(list.body)).not.toContain("scrypt");

    expect((await admin("/admin-api/advisors/erin/disable", {})).status).toBe(200);
    expect(await signIn("erin", password)).toMatchObject({
      status: 403,
      body: { message: "This advisor account is disabled." },
    });
    expect((await admin("/admin-api/advisors/erin/enable", {})).status).toBe(200);
    const reset = await admin("/admin-api/advisors/erin/reset-password", {});
    expect(reset.status).toBe(200);
    expect((await signIn("erin", password)).status).toBe(403);
    expect((await signIn("erin", reset.body.Password as string)).status).toBe(200);
    expect((await admin("/admin-api/advisors/nobody/disable", {})).status).toBe(404);
  });
});
