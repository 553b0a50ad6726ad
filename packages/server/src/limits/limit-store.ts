/**
 * Where the request limits keep their counts (issue 10, "limits shared across processes when
 * REDIS_URL is set"). In memory, each process counts alone, so N processes behind a load
 * balancer would allow N times every limit; over Redis, all processes share one count.
 *
 * Two kinds of limit, each answered atomically for several keys at once (a start-chat counts
 * against its address and its instance together, or against neither):
 * - token buckets (start-chat, every participant route): `burst` at once, then one every
 *   `intervalMs`;
 * - failure windows (advisor sign-in): at most `limit` failures within `windowMs`;
 * - places (websockets per client address): at most `max` held open at once, each given back
 *   when its socket closes.
 */

export interface BucketLimit {
  /** The most requests a key may make at once (the bucket's size). */
  burst: number;
  /**
   * Milliseconds for one token to come back (one request per `intervalMs` sustained); not
   * rounded, so any rate is kept as configured (0.5 for 2,000 a second).
   */
  intervalMs: number;
}

/** One bucket: `table` names the kind of key (every key of a table has the same limit). */
export interface BucketKey {
  table: string;
  key: string;
  limit: BucketLimit;
}

export interface WindowLimit {
  /** The most failures a key may have within the window. */
  limit: number;
  windowMs: number;
}

export interface WindowKey {
  table: string;
  key: string;
  limit: WindowLimit;
}

/** One failure recorded: what is needed to take it back. */
export interface FailureMark {
  at: number;
  id: string;
}

/** A count of things held open at once: at most `max` per key of `table`. */
export interface PlaceKey {
  table: string;
  key: string;
  max: number;
}

/** Gives a place back; calling it again does nothing. */
export type Release = () => Promise<void>;

export interface LimitStore {
  /**
   * Takes one token from each bucket, or from none: answers 0 when taken, otherwise the
   * milliseconds until every bucket has a token again (nothing is taken then, so a client
   * that waits as told gets in). A store in this process answers at once, without a promise.
   */
  take(buckets: readonly BucketKey[], now: number): number | Promise<number>;
  /**
   * Records a failure `mark` against each window, or against none: answers 0 when recorded,
   * otherwise the milliseconds until every key is under its limit again.
   */
  addFailure(windows: readonly WindowKey[], mark: FailureMark): Promise<number>;
  /** Takes back one failure recorded with `mark` (an attempt that did not fail). */
  removeFailure(window: WindowKey, mark: FailureMark): Promise<void>;
  /** Forgets every failure of the key. */
  clearFailures(window: WindowKey): Promise<void>;
  /** Holds one of the key's places: its release, or null when all `max` are held. */
  acquire(place: PlaceKey): Promise<Release | null>;
  close(): Promise<void>;
}

/** The whole seconds a refused client is told to wait (Retry-After): rounded up, at least 1. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
