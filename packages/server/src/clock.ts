/** The server's time source, injected so timing rules are tested exactly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoAt = (ms: number): string => new Date(ms).toISOString();

/** A day in milliseconds. */
export const DAY_MS = 86_400_000;
