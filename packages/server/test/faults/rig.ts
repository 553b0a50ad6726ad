/**
 * The fault rig: the contact centre as a real server process (`src/main.ts`) on a fixed port,
 * behind a TCP proxy the test controls; clients only ever see the proxy's address (the
 * server's PUBLIC_URL), so a restarted server is reached at the same place.
 */
import { readFileSync } from "node:fs";
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

/** The lowest port the kernel hands to outgoing connections and to listen(0) (Linux). */
function ephemeralLow(): number {
  try {
    const low = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
    return low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port free now, for a server that listens on it later (a child process, a restart), picked
 * below the ephemeral range: a port from listen(0) was taken in between by another file's
 * outgoing connection while a child server started (EADDRINUSE); below the range none is.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  const low = 10_000;
  for (let attempt = 1; attempt <= 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
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
