import { buildApp, listen, type BuiltApp } from "../../src/app.js";
import type { Clock } from "../../src/clock.js";
import { loadConfig, type ServerConfig } from "../../src/config.js";
import type { NewParticipant } from "../../src/contact-centre/types.js";
import { createTestDatabase, type Engine, type TestDatabase } from "./databases.js";

export interface TestServer {
  url: string;
  built: BuiltApp;
  config: ServerConfig;
  close(): Promise<void>;
  /** A new chat through the contact centre: the customer's ids and participant token. */
  startChat(displayName?: string, supportedContentTypes?: string[]): Promise<NewParticipant>;
}

export interface TestServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  features?: boolean;
  /** Folder of the contact flows (default: the server's own). */
  flowsDir?: string;
  /** A store the caller created and drops (to restart a server on it); default: a fresh one. */
  database?: TestDatabase;
}

/** A real server on 127.0.0.1, port 0, quiet, on a fresh store of the given engine. */
export async function startServer(
  engine: Engine,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase(engine));
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: "memory",
    LOG_LEVEL: "silent",
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  });
  const built = await buildApp(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    features: options.features ?? false,
    ...(options.flowsDir ? { flowsDir: options.flowsDir } : {}),
  });
  const url = await listen(built);
  return {
    url,
    built,
    config,
    async close() {
      await built.close();
      if (!options.database) await database.drop();
    },
    startChat(displayName = "Customer", supportedContentTypes = ["text/plain", "text/markdown"]) {
      return built.deps.centre.startChat({
        instanceId: "demo-instance",
        contactFlowId: "default-flow",
        displayName,
        supportedContentTypes,
      });
    },
  };
}

/** Starting a server (PGlite's initdb) can take long on a loaded machine. */
export const START_TIMEOUT_MS = 180_000;
