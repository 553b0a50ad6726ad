/**
 * Health for load balancers and orchestrators: `/healthz` answers while the process serves
 * HTTP; `/readyz` also checks that the store answers and the fan-out (Redis when configured)
 * answers, each within PROBE_TIMEOUT_MS. It is 503 when the store does not (naming it), or
 * `draining` once the process is shutting down (shutdown.ts), so no new client is sent here.
 * Redis alone away is 200 `degraded: "redis"`: chats go on (each process counts its limits
 * and repairs its sockets when Redis is back), and taking every process out of the load
 * balancer would stop them all.
 */
import type { FastifyInstance } from "fastify";
import type { FanOut } from "../fanout/fanout.js";
import type { Db } from "../store/db.js";

export const PROBE_TIMEOUT_MS = 2_000;

export interface HealthOptions {
  db: Db;
  fanout: FanOut;
  /** True once the process has begun to shut down. */
  draining: () => boolean;
}

type Probe = "ok" | "failed" | "timed out";

async function probe(check: () => Promise<unknown>): Promise<Probe> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Probe>((resolve) => {
    timer = setTimeout(() => resolve("timed out"), PROBE_TIMEOUT_MS);
  });
  const result = check().then(
    (): Probe => "ok",
    (): Probe => "failed",
  );
  try {
    return await Promise.race([result, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, { db, fanout, draining }: HealthOptions) {
  app.get("/healthz", async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ ok: true }),
  );
  app.get("/readyz", async (_request, reply) => {
    if (draining()) {
      return reply
        .code(503)
        .header("cache-control", "no-store")
        .send({ ok: false, draining: true });
    }
    const [store, fanOut] = await Promise.all([
      probe(() => db.query("SELECT 1")),
      probe(() => fanout.probe()),
    ]);
    const ok = store === "ok";
    const body = fanOut === "ok" ? { ok, store, fanOut } : { ok, degraded: "redis", store, fanOut };
    return reply
      .code(ok ? 200 : 503)
      .header("cache-control", "no-store")
      .send(body);
  });
}
