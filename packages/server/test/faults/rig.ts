/**
 * The fault rig: the contact centre as a real server process (`src/main.ts`) on a fixed port,
 * behind a TCP proxy the test controls; clients only ever see the proxy's address (the
 * server's PUBLIC_URL), so a restarted server is reached at the same place.
 */
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { createTestDatabase, type Engine, type TestDatabase } from "../support/databases.js";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";

export interface FaultRig {
  /** Where clients reach the contact centre: the proxy. */
  readonly url: string;
  readonly proxy: TcpProxy;
  /** SIGKILL the server process and wait until it is gone. */
  kill(): Promise<void>;
  /** Start the server process again on the same store and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server on PGlite in a data directory on disk, or on a fresh PostgreSQL database. */
export async function startRig(engine: Engine): Promise<FaultRig> {
  const port = await freePort();
  const proxy = await startTcpProxy(port);
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  const env: Record<string, string> = {
    PORT: String(port),
    PUBLIC_URL: proxy.url,
    LOG_LEVEL: "info",
  };
  if (engine === "postgres") {
    database = await createTestDatabase("postgres");
    env.DATABASE_URL = database.databaseUrl;
  } else {
    dataDir = await mkdtemp(join(tmpdir(), "fault-rig-"));
    env.DATA_DIR = dataDir;
  }
  let server: ChildServer = await startChildServer(env);
  return {
    url: proxy.url,
    proxy,
    async kill() {
      const { child } = server;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      await exited;
    },
    async restart() {
      server = await startChildServer(env);
    },
    async close() {
      await server.stop();
      await proxy.close();
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
