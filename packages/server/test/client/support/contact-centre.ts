/**
 * The real contact centre for the wire-compatibility tests: `buildApp` with every feature
 * (gateway, flow and bot, agent API) on 127.0.0.1, on a store the test owns, so the server
 * can be stopped and started again on the same database and the same port.
 */
import { afterEach } from "vitest";
import { buildApp, listen, type BuiltApp } from "../../../src/app.js";
import { loadConfig, type ServerConfig } from "../../../src/config.js";
import type { Db } from "../../../src/store/db.js";
import { openDb } from "../../../src/store/open-db.js";
import { createTestDatabase, type Engine } from "../../support/databases.js";

/** Starting PGlite compiles PostgreSQL's WebAssembly: slow on a loaded machine. */
export { START_TIMEOUT_MS as STARTUP_MS } from "../../support/server.js";

export interface ContactCentreServer {
  /** The server's origin, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly built: BuiltApp;
  readonly config: ServerConfig;
  /** Stop the HTTP and websocket server (every socket closes); the store stays. */
  stop(): Promise<void>;
  /** Start the server again on the same store and the same port. */
  start(): Promise<void>;
  /** Stop for good and drop the store. */
  close(): Promise<void>;
}

export interface ContactCentreOptions {
  engine?: Engine;
  /** Extra environment (e.g. ALLOWED_ORIGINS). */
  env?: Record<string, string>;
}

export async function startContactCentre(
  options: ContactCentreOptions = {},
): Promise<ContactCentreServer> {
  const database = await createTestDatabase(options.engine ?? "pglite");
  const db: Db = await openDb({
    databaseUrl: database.databaseUrl || undefined,
    dataDir: "memory",
  });
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: "memory",
    LOG_LEVEL: "silent",
    // The tests make many requests quickly from one participant.
    RATE_LIMIT_BURST: "1000",
    RATE_LIMIT_PER_SECOND: "1000",
    ...options.env,
  });
  let built = await buildApp(config, { db });
  let running = true;
  const url = await listen(built);
  // Later starts listen on the same port; the public URL (and every token) stays valid.
  config.port = Number(new URL(url).port);

  return {
    url,
    config,
    get built() {
      return built;
    },
    async stop() {
      if (!running) return;
      running = false;
      await built.close();
    },
    async start() {
      if (running) return;
      built = await buildApp(config, { db });
      await listen(built);
      running = true;
    },
    async close() {
      if (running) await built.close();
      running = false;
      await db.close();
      await database.drop();
    },
  };
}

/**
 * A contact centre for each test that starts one, closed after the test: `start()` in the
 * test, `current` where a helper needs the running one.
 */
export function contactCentrePerTest() {
  let server: ContactCentreServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    async start(options: ContactCentreOptions = {}): Promise<ContactCentreServer> {
      server = await startContactCentre(options);
      return server;
    },
    get current(): ContactCentreServer {
      if (!server) throw new Error("no contact centre was started in this test");
      return server;
    },
  };
}
