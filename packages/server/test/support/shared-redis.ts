import { randomBytes } from "node:crypto";

/** The machine's Redis, shared by every test file that runs servers on Redis. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * This test file's REDIS_KEY_PREFIX: each file's servers share their channels and limit keys
 * with each other, never with another file's running beside it (the suite runs files in
 * parallel). Made once per file: Vitest evaluates this module anew in every test file.
 */
export const FILE_KEY_PREFIX = `test:${randomBytes(6).toString("hex")}:`;

/** The environment of a server on the shared Redis, reached at `url` (a proxy's, say). */
export function sharedRedisEnv(url = TEST_REDIS_URL): {
  REDIS_URL: string;
  REDIS_KEY_PREFIX: string;
} {
  return { REDIS_URL: url, REDIS_KEY_PREFIX: FILE_KEY_PREFIX };
}
