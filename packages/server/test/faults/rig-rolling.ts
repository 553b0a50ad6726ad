/**
 * A rolling deploy (issue 23): two contact-centre processes on one PostgreSQL database and one
 * Redis, behind the suite's TCP proxy playing a round-robin load balancer (each new connection
 * to the next process, to the other when that one refuses). `restart(i)` does what an operator
 * does to one process: SIGTERM, wait until it is gone, start it again on the same port.
 */
import { randomBytes } from "node:crypto";
import { Advisor, json } from "../client/support/http.js";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { freePort } from "./rig.js";
import { sharedRedisEnv } from "../support/shared-redis.js";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";

/** Each advisor's share: the most chats one advisor may hold (MAX_CONCURRENT_CHATS). */
export const CHATS_PER_ADVISOR = 10;

export interface RollingRig {
  readonly url: string;
  readonly proxy: TcpProxy;
  /** Advisors signed in (through the proxy) who can take `chats` chats between them. */
  readonly advisors: Advisor[];
  /** The settings both processes run with (DRAIN_DELAY_MS, SHUTDOWN_TIMEOUT_MS among them). */
  readonly env: Readonly<Record<string, string>>;
  /** SIGTERM process `index`, wait until it has exited, start it again; how long the exit took. */
  restart(index: 0 | 1): Promise<{ exitMs: number }>;
  /** Both processes' output so far (for a failure's message). */
  output(): string;
  close(): Promise<void>;
}

export async function startRollingRig(
  chats: number,
  settings: Record<string, string> = {},
): Promise<RollingRig> {
  const ports = [await freePort(), await freePort()] as const;
  const proxy = await startTcpProxy(ports);
  const database: TestDatabase = await createTestDatabase("postgres");
  const adminToken = randomBytes(24).toString("hex");
  const shared = {
    PUBLIC_URL: proxy.url,
    LOG_LEVEL: "info",
    DATABASE_URL: database.databaseUrl,
    ...sharedRedisEnv(),
    ADMIN_TOKEN: adminToken,
    // Every chat starts from 127.0.0.1: the per-address start-chat limit must not turn them away.
    START_CHAT_BURST: String(chats + 10),
    START_CHAT_PER_MINUTE: String(60 * (chats + 10)),
    // Two sockets a chat, and while a process stops each may briefly have a second.
    WEBSOCKETS_PER_ADDRESS: String(4 * chats + 20),
    ...settings,
  };
  const envOf = (index: number) => ({ ...shared, PORT: String(ports[index]) });
  const servers: ChildServer[] = [];
  let earlier = "";
  // One after the other: both would run the migrations at once.
  for (const index of [0, 1]) servers.push(await startChildServer(envOf(index)));

  const advisors: Advisor[] = [];
  for (let i = 0; i < Math.ceil(chats / CHATS_PER_ADVISOR); i++) {
    const username = `advisor${i}`;
    const created = await json<{ Password: string }>(proxy.url, "/admin-api/advisors", {
      token: adminToken,
      body: { Username: username, Name: `Advisor ${i}`, MaxConcurrentChats: CHATS_PER_ADVISOR },
    });
    advisors.push(await Advisor.signIn(proxy.url, { username, password: created.Password }));
  }

  return {
    url: proxy.url,
    proxy,
    advisors,
    env: shared,
    async restart(index) {
      const { child } = servers[index]!;
      earlier += servers[index]!.output();
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const started = Date.now();
      child.kill("SIGTERM");
      await exited;
      const exitMs = Date.now() - started;
      servers[index] = await startChildServer(envOf(index));
      return { exitMs };
    },
    output: () => earlier + servers.map((s) => s.output()).join(""),
    async close() {
      for (const server of servers) await server.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
