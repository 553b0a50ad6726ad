import { randomInt, randomUUID } from "node:crypto";
import { AgentApiPath, GatewayPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, listen, type BuiltApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { http, startChatBody } from "./helpers.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** An address of its own for each run, so runs sharing one Redis never share counts. */
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * Two server processes behind one proxy, on one PostgreSQL store and one Redis: the limits
 * hold for both together (issue 10). Before the limit store, each counted alone and the two
 * allowed twice each limit.
 */
describe("request limits shared by two processes over Redis", () => {
  let database: TestDatabase;
  const apps: BuiltApp[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    for (let i = 0; i < 2; i++) {
      const config = loadConfig({
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
        DATABASE_URL: database.databaseUrl,
        REDIS_URL,
        TOKEN_SECRET: "shared-secret",
        TRUST_PROXY: "1",
        START_CHAT_BURST: "3",
        START_CHAT_PER_MINUTE: "1",
      });
      const built = await buildApp(config, { features: true });
      apps.push(built);
      urls.push(await listen(built));
    }
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it("start-chat: one address gets its burst of 3 across both processes, then 429 from either", async () => {
    const address = freshAddress();
    const start = (url: string) =>
      http(url + GatewayPath.StartChat, {
        headers: { origin: url, "x-forwarded-for": address },
        body: startChatBody(),
      });
    const [a, b] = urls as [string, string];
    const statuses = [];
    for (const url of [a, b, a]) statuses.push((await start(url)).status);
    expect(statuses).toEqual([200, 200, 200]);
    for (const url of [b, a]) {
      const refused = await start(url);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
    }
  });

  it("sign-in: 5 wrong passwords for one account spread over both processes, then 429 from either", async () => {
    const username = `nobody-${randomUUID()}`;
    const signIn = (url: string) =>
      http(url + AgentApiPath.SignIn, {
        headers: { "x-forwarded-for": freshAddress() },
        body: { Username: username, Password: "wrong" },
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(urls[i % 2]!)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    expect((await signIn(urls[1]!)).status).toBe(429);
    expect((await signIn(urls[0]!)).status).toBe(429);
  });
});
