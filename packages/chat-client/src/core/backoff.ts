/**
 * The client's one backoff rule (spec §4, issue 9): 1 s doubling to 30 s, with ±30 % jitter,
 * never above 30 s. Used for reopening a websocket URL and for retrying a failed transcript
 * repair; `random` is the injected source (a number in [0, 1); 0.5 means no jitter).
 */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
export const BACKOFF_JITTER = 0.3;

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffDelayMs(attempt: number, random: () => number): number {
  const exponential = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt), BACKOFF_MAX_MS);
  const factor = 1 + BACKOFF_JITTER * (2 * random() - 1);
  return Math.min(Math.round(exponential * factor), BACKOFF_MAX_MS);
}
