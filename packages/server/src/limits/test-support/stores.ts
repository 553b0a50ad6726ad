import { randomUUID } from "node:crypto";
import type { LimitStore } from "../limit-store.js";
import { MemoryLimitStore } from "../memory-limit-store.js";
import { createRedisLimitStore } from "../redis-limit-store.js";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * A Redis limit store with a fresh key prefix, so runs and tests never share counts; given the
 * prefix of another, a second process's store sharing its counts.
 */
export const openRedisStore = (prefix = `test:limits:${randomUUID()}:`): Promise<LimitStore> =>
  createRedisLimitStore({ url: REDIS_URL, prefix });

/** Both stores, for `describe.each`: every limit must hold the same in memory and in Redis. */
export const LIMIT_STORES: [string, () => Promise<LimitStore>][] = [
  ["memory", async () => new MemoryLimitStore()],
  ["Redis", () => openRedisStore()],
];
