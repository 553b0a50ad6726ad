import type { FastifyBaseLogger } from "fastify";
import type { ServerConfig } from "./config.js";
import type { ContactCentre } from "./contact-centre/types.js";
import type { FanOut } from "./fanout/fanout.js";
import type { LimitStore } from "./limits/limit-store.js";
import type { Refusals } from "./http/refusals.js";
import type { FanOutRepairs } from "./fanout/repairs.js";
import type { CallerCache } from "./participant/caller-cache.js";
import type { FrameGuard } from "./participant/frame-guard.js";
import type { SocketWrites } from "./participant/socket-writes.js";
import type { Db } from "./store/db.js";

/** What every route plugin and service of the server is given. */
export interface ServerDeps {
  config: ServerConfig;
  db: Db;
  fanout: FanOut;
  centre: ContactCentre;
  /** Where every request limit counts (Redis when REDIS_URL is set, else memory). */
  limits: LimitStore;
  log: FastifyBaseLogger;
  /** The callers of recently given or used tokens, so requests need not read the store. */
  callers: CallerCache;
  /** Requests refused under a security rule, by kind (/metrics). */
  refusals: Refusals;
  /** The fan-out's interruptions and the items repaired after them (/metrics). */
  repairs: FanOutRepairs;
  /** What websocket client frames may cost: pings from a cached store probe, others budgeted. */
  frames: FrameGuard;
  /** What a websocket that stops reading may cost: cut past a buffer bound or an unanswered ping. */
  writes: SocketWrites;
}
