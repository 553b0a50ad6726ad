/**
 * Health for load balancers and orchestrators: `/healthz` answers while the process serves
 * HTTP; `/readyz` also checks that the store answers and the fan-out (Redis when configured)
 * takes a message, each within PROBE_TIMEOUT_MS, and is 503 naming what failed — or
 * `draining` once the process is shutting down (shutdown.ts), so no new client is sent here.
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
      probe(() => fanout.publish("readyz", 0)),
    ]);
    const ok = store === "ok" && fanOut === "ok";
    return reply
      .code(ok ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ ok, store, fanOut });
  });
}
