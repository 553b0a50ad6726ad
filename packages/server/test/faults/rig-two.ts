/**
 * Two contact-centre processes on one PostgreSQL database and one Redis, behind one TCP proxy
 * that plays the load balancer: it sends every connection to process A until the test fails
 * it over to process B.
 */
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { freePort } from "./rig.js";
import { sharedRedisEnv } from "../support/shared-redis.js";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";

export interface TwoProcessRig {
  readonly url: string;
  readonly proxy: TcpProxy;
  /** SIGKILL process A and send every new connection to B. */
  killAndFailOver(): Promise<void>;
  close(): Promise<void>;
}

export async function startTwoProcessRig(): Promise<TwoProcessRig> {
  const [portA, portB] = [await freePort(), await freePort()];
  const proxy = await startTcpProxy(portA);
  const database: TestDatabase = await createTestDatabase("postgres");
  const env = (port: number) => ({
    PORT: String(port),
    PUBLIC_URL: proxy.url,
    LOG_LEVEL: "info",
    DATABASE_URL: database.databaseUrl,
    ...sharedRedisEnv(),
  });
  const a: ChildServer = await startChildServer(env(portA));
  const b: ChildServer = await startChildServer(env(portB));
  return {
    url: proxy.url,
    proxy,
    async killAndFailOver() {
      const exited = new Promise<void>((resolve) => a.child.once("exit", () => resolve()));
      a.child.kill("SIGKILL");
      await exited;
      proxy.retarget(portB);
    },
    async close() {
      await a.stop();
      await b.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
