import type { LimitStore } from "./limit-store.js";
import { MemoryLimitStore } from "./memory-limit-store.js";
import { createRedisLimitStore, LIMIT_KEY_PREFIX } from "./redis-limit-store.js";

/** Redis when a URL is given (shared by every process), otherwise this process's memory. */
export async function openLimitStore(
  redisUrl: string | undefined,
  onError?: (error: unknown) => void,
  /** REDIS_KEY_PREFIX: before every key in Redis. */
  keyPrefix = "",
): Promise<LimitStore> {
  if (!redisUrl) return new MemoryLimitStore();
  return createRedisLimitStore({ url: redisUrl, onError, prefix: keyPrefix + LIMIT_KEY_PREFIX });
}
