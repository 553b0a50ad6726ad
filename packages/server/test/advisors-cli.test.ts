/**
 * Issue 10: advisors managed for real with `npm run advisors` (src/cli/advisors.ts, run here as
 * its own process on the server's PostgreSQL store while the server runs), and the two modes:
 * production seeds no usable advisor and serves no jwt-minting page.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AgentApiPath, GatewayPath, type SignInResponse } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetAdvisorPassword, setAdvisorDisabled } from "../src/agents/advisor-admin.js";
import { signJwt } from "../src/gateway/jwt.js";
import { startChildServer } from "./support/child-server.js";
import { createTestDatabase, type TestDatabase } from "./support/databases.js";
import { startServer, type TestServer } from "./support/server.js";
import { http, startChatBody } from "./features/helpers.js";

const SERVER_PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const PRODUCTION_SECRET = "a-production-secret-of-forty-characters!";

/** Runs the CLI on `database`: its exit code and output. */
function advisors(database: TestDatabase, ...args: string[]) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=@chat-widget/source", "--import", "tsx", "src/cli/advisors.ts", ...args],
      { cwd: SERVER_PACKAGE, env: { ...process.env, DATABASE_URL: database.databaseUrl } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}
/**
 * Each CLI call is a process of its own that loads TypeScript through tsx: 1–3 s each on a
 * loaded 2-core machine, and a test makes up to 11 of them (one timed out at 20 s on a slow
 * hour). The time is not what these tests prove.
 */
const CLI_TEST_TIMEOUT_MS = 90_000;
const passwordIn = (out: string) => /(?:Password|password for \S+): (\S+)/.exec(out)![1]!;

describe(
  "the advisor CLI, with the server running on the same PostgreSQL store",
  { timeout: CLI_TEST_TIMEOUT_MS },
  () => {
    let database: TestDatabase;
    let server: TestServer;
    beforeAll(async () => {
      database = await createTestDatabase("postgres");
      server = await startServer("postgres", { database, features: true });
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const signIn = (Username: string, Password: string) =>
      http<SignInResponse>(server.url + AgentApiPath.SignIn, { body: { Username, Password } });
    const me = (token: string) =>
      http(server.url + AgentApiPath.Me, { headers: { authorization: `Bearer ${token}` } });

    it("adds an advisor with a generated password, resets it, disables and enables them", async () => {
      const added = await advisors(database, "add", "alice", "--name", "Alice Doe");
      expect(added.code).toBe(0);
      const first = passwordIn(added.out);
      expect(first).toMatch(/^[\w-]{24}$/);
      const session = await signIn("alice", first);
      expect(session.status).toBe(200);
      expect(session.body.Advisor).toMatchObject({ Username: "alice", Name: "Alice Doe" });

      const reset = await advisors(database, "reset-password", "alice");
      expect(reset.code).toBe(0);
      const second = passwordIn(reset.out);
      expect(second).not.toBe(first);
      expect((await me(session.body.Token)).status).toBe(403); // signed out everywhere
      expect((await signIn("alice", first)).status).toBe(403);
      const again = await signIn("alice", second);
      expect(again.status).toBe(200);

      expect((await advisors(database, "disable", "alice")).code).toBe(0);
      expect((await me(again.body.Token)).status).toBe(403);
      const disabled = await signIn("alice", second);
      expect(disabled.status).toBe(403);
      expect(disabled.body).toMatchObject({ message: "This advisor account is disabled." });

      expect((await advisors(database, "enable", "alice")).code).toBe(0);
      expect((await signIn("alice", second)).status).toBe(200);
      const list = await advisors(database, "list");
      expect(list.out).toContain("alice\tAlice Doe\tOffline\tmax 10 chats");
      expect(list.out).toContain("demo\tSam\t");
    });

    it("refuses what it cannot do with a clear message and exit code 2, changing nothing", async () => {
      const cases: [string[], string][] = [
        [["add", "bob"], "The name must be 1–100 characters"],
        [["add", "bad name!", "--name", "X"], "The username must be 1–64 letters"],
        [
          ["add", "carol", "--name", "C", "--max-chats", "500"],
          "MaxConcurrentChats must be an integer from 1 to 50",
        ],
        [["disable", "nobody"], "No advisor nobody"],
        [["reset-password", "nobody"], "No advisor nobody"],
        [["remove", "alice"], "Unknown command remove"],
        [[], "Usage: npm run advisors -- <command>"],
      ];
      for (const [args, message] of cases) {
        const r = await advisors(database, ...args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.out).toContain(message);
      }
      expect((await advisors(database, "add", "dave", "--name", "Dave")).code).toBe(0);
      const twice = await advisors(database, "add", "dave", "--name", "Dave");
      expect(twice).toMatchObject({ code: 2, out: expect.stringContaining("dave already exists") });
      const list = await advisors(database, "list");
      expect(list.out).not.toContain("bob");
      expect(list.out).not.toContain("carol");
    });
  },
);

describe("production mode", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("postgres", {
      features: true,
      env: { CONTACT_CENTRE_MODE: "production", WIDGET_JWT_SECRET: PRODUCTION_SECRET },
    });
  }, 120_000);
  afterAll(() => server?.close());

  it("serves no demo page and no demo advisor; visitor jwts verify with the configured key", async () => {
    expect((await fetch(server.url + "/")).status).toBe(404);
    const demo = await http(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: "demo" },
    });
    expect(demo.status).toBe(403);
    // Its password "demo" is gone, not only the account disabled.
    expect(demo.body).toMatchObject({ message: "Wrong username or password." });
    const jwt = signJwt({ attributes: { orderNumber: "A-1" } }, PRODUCTION_SECRET);
    const started = await http(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url },
      body: startChatBody({ Jwt: jwt }),
    });
    expect(started.status).toBe(200);
    const demoSigned = await http(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url },
      body: startChatBody({ Jwt: signJwt({}, "demo-secret") }),
    });
    expect(demoSigned.status).toBe(403);
  });

  it("the demo advisor enabled again in production still cannot sign in as demo/demo", async () => {
    await setAdvisorDisabled(server.built.deps.db, "demo", false);
    const demo = await http(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: "demo" },
    });
    expect(demo.status).toBe(403);
    expect(demo.body).not.toHaveProperty("Token");
    // A password of the operator's own makes it an account like any other.
    const { password } = await resetAdvisorPassword(server.built.deps.db, "demo");
    const own = await http(server.url + AgentApiPath.SignIn, {
      body: { Username: "demo", Password: password },
    });
    expect(own.status).toBe(200);
  });

  it("the server refuses to start without a visitor jwt key, saying which settings to set", async () => {
    await expect(
      startChildServer({ NODE_ENV: "production", DATA_DIR: "memory" }, 60_000),
    ).rejects.toThrow(
      "Production mode needs the visitor jwt's key: set WIDGET_JWT_SECRET, WIDGET_JWT_PUBLIC_KEY or WIDGET_JWT_JWKS_URL",
    );
  });
});
