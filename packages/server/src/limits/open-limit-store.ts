import type { LimitStore } from "./limit-store.js";
import { MemoryLimitStore } from "./memory-limit-store.js";
import { createRedisLimitStore } from "./redis-limit-store.js";

/** Redis when a URL is given (shared by every process), otherwise this process's memory. */
export async function openLimitStore(
  redisUrl: string | undefined,
  onError?: (error: unknown) => void,
): Promise<LimitStore> {
  return redisUrl ? createRedisLimitStore({ url: redisUrl, onError }) : new MemoryLimitStore();
}
