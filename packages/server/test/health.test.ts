/**
 * /healthz and /readyz (issue 10) against real parts: PostgreSQL and Redis reached through
 * TCP proxies the test black-holes, so the store or the fan-out stops answering for real.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBE_TIMEOUT_MS } from "../src/http/health.js";
import { startTcpProxy, type TcpProxy } from "./faults/tcp-proxy.js";
import { createTestDatabase, type TestDatabase } from "./support/databases.js";
import { startServer, type TestServer } from "./support/server.js";
import { sharedRedisEnv, TEST_REDIS_URL } from "./support/shared-redis.js";

const REDIS = new URL(TEST_REDIS_URL);

describe("health and readiness", () => {
  let database: TestDatabase;
  let storeProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const url = new URL(database.databaseUrl);
    storeProxy = await startTcpProxy(Number(url.port || 5432));
    url.host = `127.0.0.1:${storeProxy.port}`;
    redisProxy = await startTcpProxy(Number(REDIS.port || 6379));
    server = await startServer("postgres", {
      database: { ...database, databaseUrl: url.toString() },
      env: sharedRedisEnv(`redis://127.0.0.1:${redisProxy.port}`),
    });
  }, 120_000);
  afterAll(async () => {
    await storeProxy?.set("pass");
    await redisProxy?.set("pass");
    await server?.close();
    await storeProxy?.close();
    await redisProxy?.close();
    await database?.drop();
  });

  const get = async (path: string) => {
    const r = await fetch(server.url + path);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it("both answer 200 while the store and Redis answer", async () => {
    expect(await get("/healthz")).toEqual({ status: 200, body: { ok: true } });
    expect(await get("/readyz")).toEqual({
      status: 200,
      body: { ok: true, store: "ok", fanOut: "ok" },
    });
  });

  it(
    "readiness is 200 degraded while only Redis is away, 503 naming the store when it stops answering; health stays 200; both recover",
    async () => {
      await redisProxy.set("blackhole");
      expect(await get("/readyz")).toEqual({
        status: 200,
        body: { ok: true, degraded: "redis", store: "ok", fanOut: "timed out" },
      });
      expect((await get("/healthz")).status).toBe(200);
      await redisProxy.set("pass");
      await storeProxy.set("blackhole");
      const stalled = await get("/readyz");
      expect(stalled.status).toBe(503);
      expect(stalled.body.store).toBe("timed out");
      await storeProxy.set("pass");
      await expect
        .poll(async () => (await get("/readyz")).status, { timeout: 30_000, interval: 200 })
        .toBe(200);
    },
    PROBE_TIMEOUT_MS * 10 + 60_000,
  );
});
