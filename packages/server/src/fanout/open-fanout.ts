import type { FanOut } from "./fanout.js";
import { createMemoryFanOut } from "./memory.js";
import { createRedisFanOut } from "./redis.js";

/** Redis pub/sub when a URL is given, otherwise in-process. */
export async function openFanOut(
  redisUrl: string | undefined,
  onError?: (error: unknown) => void,
  /** REDIS_KEY_PREFIX: before every channel's name in Redis. */
  prefix = "",
): Promise<FanOut> {
  return redisUrl ? createRedisFanOut(redisUrl, onError, prefix) : createMemoryFanOut(onError);
}
