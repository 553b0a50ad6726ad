/**
 * A promise with a deadline on the injected clock: after `ms` it rejects with what `onTimeout`
 * returns (which may also abort the work), and a late failure of the work is then ignored.
 */
import type { ClientEnv, TimerHandle } from "../env.js";

export function withTimeout<T>(
  env: Pick<ClientEnv, "setTimeout" | "clearTimeout">,
  ms: number,
  work: Promise<T>,
  onTimeout: () => unknown,
): Promise<T> {
  let timer: TimerHandle | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = env.setTimeout(() => reject(onTimeout()), ms);
  });
  work.catch(() => {}); // a late failure after the timeout is not unhandled
  return Promise.race([work, timeout]).finally(() => env.clearTimeout(timer));
}
